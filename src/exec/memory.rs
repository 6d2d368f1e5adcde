//! Global memory: device allocations with bounds, shared by every CTA of a launch.
//!
//! CTAs run on several host threads, so memory is `AtomicU64` words accessed with
//! `Relaxed` ordering (plain moves on x86): an aligned 8-byte access is one word,
//! single-copy atomic as PTX's strong accesses are, so a 64-bit atomic and a
//! 64-bit load never tear; a 4-byte load is one word and a shift; a store narrower
//! than the word is a compare-exchange on it, unless a whole warp stores a run of
//! consecutive 4-byte values, which goes a word at a time. Atomics are real
//! read-modify-writes on their word. Atomics make racy kernels sound Rust (one
//! `unsafe`, in [`GlobalMemory::load_row`], only skips a bounds check that the row
//! check has made), and a racy
//! program gets some interleaving of whole stores, never torn bytes or undefined
//! behaviour in ptxvm. Any access outside an allocation, or not aligned to its size,
//! is a [`MemFault`] (DESIGN.md, "Memory"). Addresses start high (like CUDA's) so
//! that a null or small integer used as a pointer faults.

use super::storage::Words;
use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;

/// Where the first allocation starts, and the alignment of every allocation
/// (cudaMalloc returns 256-byte aligned addresses).
pub const BASE: u64 = 0x7f00_0000_0000;
pub const ALIGN: u64 = 256;

/// Why an access failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MemFault {
    #[error("out of bounds: address 0x{addr:x} ({size} bytes) is outside every allocation")]
    OutOfBounds { addr: u64, size: u64 },
    #[error("address 0x{addr:x} is not aligned to the {size}-byte access")]
    Misaligned { addr: u64, size: u64 },
    #[error("cannot allocate {bytes} bytes")]
    TooLarge { bytes: u64 },
    #[error("0x{addr:x} ({bytes} bytes) overlaps memory already in use")]
    Overlaps { addr: u64, bytes: u64 },
}

/// What an allocation is: what [`GlobalMemory::free`] may free and what a pointer
/// query reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Made by [`GlobalMemory::alloc`] and its kin.
    Device,
    /// A module's data image (`.global` and `.const` variables), by the program's
    /// serial number.
    Image(u64),
    /// Host memory the program lent to kernels ([`GlobalMemory::lend`]).
    Lent,
}

struct Allocation {
    base: u64,
    len: u64,
    words: Words,
    kind: Kind,
    /// What the allocation holds, for fault reports (`args[2]`).
    label: Option<Box<str>>,
}

/// The bits of `size` bytes (1, 2, 4 or 8) at byte `shift / 8` of a word.
#[inline]
fn field(size: u64, shift: u64) -> u64 {
    if size == 8 { u64::MAX } else { ((1u64 << (size * 8)) - 1) << shift }
}

/// An element of a register row that a load fills: the loaded bits, truncated to it.
pub trait RowBits: Copy {
    fn from_bits(bits: u64) -> Self;
}

impl RowBits for u32 {
    #[inline(always)]
    fn from_bits(bits: u64) -> u32 {
        bits as u32
    }
}

impl RowBits for u64 {
    #[inline(always)]
    fn from_bits(bits: u64) -> u64 {
        bits
    }
}

impl Allocation {
    #[inline]
    fn word(&self, w: usize) -> u64 {
        self.words[w].load(Relaxed)
    }

    /// An aligned access of `size` bytes at byte offset `off`.
    #[inline]
    fn load(&self, off: u64, size: u64) -> u64 {
        let shift = (off % 8) * 8;
        (self.word((off / 8) as usize) & field(size, shift)) >> shift
    }

    #[inline]
    fn store(&self, off: u64, size: u64, bits: u64) {
        let w = &self.words[(off / 8) as usize];
        if size == 8 {
            w.store(bits, Relaxed);
            return;
        }
        let shift = (off % 8) * 8;
        let mask = field(size, shift);
        let v = (bits << shift) & mask;
        let _ = w.fetch_update(Relaxed, Relaxed, |old| Some((old & !mask) | v));
    }
}

/// Locks that make a 16-byte vector access (two words) single-copy atomic against
/// every other 16-byte vector access: one of 1,024 spin locks, by address. They are
/// held for two word moves and never nested.
struct VectorLock(&'static std::sync::atomic::AtomicBool);

static VECTOR_LOCKS: [std::sync::atomic::AtomicBool; 1024] =
    [const { std::sync::atomic::AtomicBool::new(false) }; 1024];

impl VectorLock {
    fn take(addr: u64) -> VectorLock {
        use std::sync::atomic::Ordering::{Acquire, Relaxed};
        let l = &VECTOR_LOCKS[((addr >> 4) % 1024) as usize];
        let mut spins = 0u32;
        while l.compare_exchange_weak(false, true, Acquire, Relaxed).is_err() {
            spins += 1;
            if spins.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        VectorLock(l)
    }
}

impl Drop for VectorLock {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::Release);
    }
}

/// The device's global memory.
#[derive(Default)]
pub struct GlobalMemory {
    /// Sorted by base address.
    allocs: Vec<Allocation>,
    /// Unified addressing: an allocation's address is the host address of its bytes
    /// (the CUDA driver's view); otherwise addresses count up from [`BASE`], the
    /// same in every run (the command line's, for reproducible reports).
    unified: bool,
    /// With unified addressing, the allocations freed last, still held so that their
    /// addresses go to nothing else: a stale pointer into one is known as such
    /// ([`GlobalMemory::was_freed`]), as a sanitizer's quarantine does.
    quarantine: std::collections::VecDeque<Allocation>,
    /// The texture and surface objects made over this memory.
    pub objects: super::texture::Objects,
}

/// Freed allocations held in quarantine at most, by count and by bytes.
const QUARANTINE: (usize, u64) = (256, 64 << 20);

/// Words a host copy moves per task.
const COPY_CHUNK: usize = 1 << 15;

fn zeroed(len: u64) -> Option<Words> {
    Words::zeroed(usize::try_from(len.div_ceil(8)).ok()?)
}

impl GlobalMemory {
    /// Global memory with unified addressing: every allocation's device address is
    /// the host address of its bytes, so host code reads and writes them in place
    /// (managed and mapped host memory). Module images keep their fixed windows.
    pub fn unified() -> GlobalMemory {
        GlobalMemory {
            allocs: Vec::new(),
            unified: true,
            quarantine: Default::default(),
            objects: Default::default(),
        }
    }

    /// Whether `addr` is in an allocation freed lately (unified addressing only) and in
    /// none live.
    pub fn was_freed(&self, addr: u64) -> bool {
        self.range(addr).is_none()
            && self.quarantine.iter().any(|a| (a.base..a.base + a.len.max(1)).contains(&addr))
    }

    /// Allocates `len` zeroed bytes; returns the device address.
    ///
    /// # Errors
    /// [`MemFault::TooLarge`] when the size cannot be represented or the host has
    /// not that much memory.
    pub fn alloc(&mut self, len: u64) -> Result<u64, MemFault> {
        let words = zeroed(len).ok_or(MemFault::TooLarge { bytes: len })?;
        self.insert(len, words, Kind::Device)
    }

    /// Files `words` (holding `len` bytes) as a new allocation at the next address, or
    /// at the words' own address with unified addressing.
    fn insert(&mut self, len: u64, words: Words, kind: Kind) -> Result<u64, MemFault> {
        let base = if self.unified || kind == Kind::Lent { words.addr() } else { self.next_base(len)? };
        let i = self.allocs.partition_point(|a| a.base < base);
        let end = base.checked_add(len.max(1)).ok_or(MemFault::TooLarge { bytes: len })?;
        let below = i.checked_sub(1).map(|k| &self.allocs[k]);
        if below.is_some_and(|a| a.base + a.len.max(1) > base)
            || self.allocs.get(i).is_some_and(|a| a.base < end)
        {
            return Err(MemFault::Overlaps { addr: base, bytes: len });
        }
        self.allocs.insert(i, Allocation { base, len, words, kind, label: None });
        Ok(base)
    }

    /// Where an allocation of `len` bytes goes without unified addressing: aligned,
    /// after the last one.
    fn next_base(&self, len: u64) -> Result<u64, MemFault> {
        let too_large = MemFault::TooLarge { bytes: len };
        let base = match self.allocs.last() {
            Some(a) if a.base >= BASE => {
                (a.base + a.len.max(1)).div_ceil(ALIGN).checked_mul(ALIGN).ok_or(too_large)?
            }
            _ => BASE,
        };
        base.checked_add(len).ok_or(too_large)?;
        Ok(base)
    }

    /// Lends the host program's `len` bytes at `addr` to kernels (`cuMemHostRegister`):
    /// they read and write them in place. The words around an unaligned start or end
    /// are accessed as wholes, but only the bytes asked for are in bounds of the
    /// allocation, up to the word that holds `addr`.
    ///
    /// # Safety
    /// The bytes stay allocated until [`GlobalMemory::take_back`] (or the memory is
    /// dropped), and Rust code does not access them meanwhile but through this.
    ///
    /// # Errors
    /// [`MemFault::Overlaps`] when the range overlaps an allocation or lent range.
    pub unsafe fn lend(&mut self, addr: u64, len: u64) -> Result<u64, MemFault> {
        let start = addr & !7;
        let end = addr.checked_add(len).ok_or(MemFault::TooLarge { bytes: len })?;
        let n =
            usize::try_from(end.div_ceil(8) - start / 8).map_err(|_| MemFault::TooLarge { bytes: len })?;
        // SAFETY: `start` is aligned; the caller keeps the words from `start` to
        // `end` rounded up (whole words of the lent range) alive.
        let words = unsafe { Words::lent(start, n) }.ok_or(MemFault::OutOfBounds { addr, size: len })?;
        self.insert(end - start, words, Kind::Lent)
    }

    /// Ends the loan of host memory that [`GlobalMemory::lend`] made at `addr`.
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] when no loan holds `addr`.
    pub fn take_back(&mut self, addr: u64) -> Result<(), MemFault> {
        match self.allocs.iter().position(|a| a.kind == Kind::Lent && a.base == addr & !7) {
            Some(k) => {
                self.allocs.remove(k);
                Ok(())
            }
            None => Err(MemFault::OutOfBounds { addr, size: 0 }),
        }
    }

    /// The allocation holding `addr`: its base and length.
    pub fn range(&self, addr: u64) -> Option<(u64, u64)> {
        let a = self.find(addr)?;
        (addr < a.base + a.len.max(1)).then_some((a.base, a.len))
    }

    /// Copies `len` bytes from `src` to `dst`, each inside one allocation (device to
    /// device). Overlapping ranges copy as if through a buffer.
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] unless both ranges lie in allocations.
    pub fn copy(&self, dst: u64, src: u64, len: u64) -> Result<(), MemFault> {
        self.span(dst, len)?;
        let data =
            self.read_to_vec(src, usize::try_from(len).map_err(|_| MemFault::TooLarge { bytes: len })?)?;
        self.write_bytes(dst, &data)
    }

    /// Writes `pattern` (1, 2 or 4 bytes, little-endian) `count` times from `addr`
    /// (`cuMemsetD8/16/32`).
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] unless the range lies in one allocation.
    pub fn fill(&self, addr: u64, pattern: &[u8], count: u64) -> Result<(), MemFault> {
        let bytes = count.checked_mul(pattern.len() as u64).ok_or(MemFault::TooLarge { bytes: count })?;
        let a = self.span(addr, bytes)?;
        let off = addr - a.base;
        // Whole words when the pattern tiles a word from a word boundary.
        if off.is_multiple_of(8) && pattern.len() <= 8 && 8 % pattern.len() == 0 {
            let mut w = [0u8; 8];
            for (k, b) in w.iter_mut().enumerate() {
                *b = pattern[k % pattern.len()];
            }
            let word = u64::from_le_bytes(w);
            let first = (off / 8) as usize;
            let whole = (bytes / 8) as usize;
            a.words[first..first + whole]
                .par_chunks(COPY_CHUNK)
                .for_each(|c| c.iter().for_each(|x| x.store(word, Relaxed)));
            for k in whole as u64 * 8..bytes {
                a.store(off + k, 1, u64::from(pattern[(k % pattern.len() as u64) as usize]));
            }
            return Ok(());
        }
        for k in 0..bytes {
            a.store(off + k, 1, u64::from(pattern[(k % pattern.len() as u64) as usize]));
        }
        Ok(())
    }

    /// Allocates a copy of `data`; returns the device address. One pass on every
    /// core, where [`GlobalMemory::alloc`] and a copy would write the memory twice.
    ///
    /// # Errors
    /// [`MemFault::TooLarge`] when the size cannot be represented.
    pub fn alloc_from(&mut self, data: &[u8]) -> Result<u64, MemFault> {
        let len = data.len() as u64;
        let words = zeroed(len).ok_or(MemFault::TooLarge { bytes: len })?;
        words.par_chunks(COPY_CHUNK).zip(data.par_chunks(8 * COPY_CHUNK)).for_each(|(words, bytes)| {
            for (w, c) in words.iter().zip(bytes.chunks(8)) {
                let mut b = [0u8; 8];
                b[..c.len()].copy_from_slice(c);
                w.store(u64::from_le_bytes(b), Relaxed);
            }
        });
        self.insert(len, words, Kind::Device)
    }

    /// Allocates `len` bytes read from `r` (a file's data, say), converted to words
    /// as they come: host memory holds them once, not once read and once copied.
    ///
    /// # Errors
    /// What reading returns (a source shorter than `len` is `UnexpectedEof`), or
    /// [`MemFault::TooLarge`] as an `OutOfMemory` error.
    pub fn alloc_from_reader(&mut self, len: u64, r: &mut impl std::io::Read) -> std::io::Result<u64> {
        let too_large = |e: MemFault| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e.to_string());
        // A size the host cannot hold is an error, not an abort.
        let words = zeroed(len).ok_or_else(|| too_large(MemFault::TooLarge { bytes: len }))?;
        let mut piece = vec![0u8; 8 * COPY_CHUNK];
        let mut left = len as usize;
        let mut next = words.iter();
        while left > 0 {
            let k = piece.len().min(left);
            r.read_exact(&mut piece[..k])?;
            // A last piece of `len % 8` bytes is padded with zeros to a word.
            piece[k..k.next_multiple_of(8)].fill(0);
            let whole = &piece[..k.next_multiple_of(8)];
            for (c, w) in whole.chunks_exact(8).zip(next.by_ref()) {
                w.store(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]), Relaxed);
            }
            left -= k;
        }
        self.insert(len, words, Kind::Device).map_err(too_large)
    }

    /// Frees the allocation that starts at `addr` (one [`GlobalMemory::alloc`] made).
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] when no such allocation starts there.
    pub fn free(&mut self, addr: u64) -> Result<(), MemFault> {
        match self.allocs.iter().position(|a| a.base == addr && a.kind == Kind::Device) {
            Some(k) => {
                let freed = self.allocs.remove(k);
                if self.unified {
                    self.quarantine.push_back(freed);
                    let held =
                        |q: &std::collections::VecDeque<Allocation>| q.iter().map(|a| a.len).sum::<u64>();
                    while self.quarantine.len() > QUARANTINE.0 || held(&self.quarantine) > QUARANTINE.1 {
                        self.quarantine.pop_front();
                    }
                }
                Ok(())
            }
            None => Err(MemFault::OutOfBounds { addr, size: 0 }),
        }
    }

    /// Places the data image `bytes` of program `serial` at the fixed address `base`,
    /// below [`BASE`]. Nothing happens when that program's image is there already; the
    /// image of an unloaded program whose window `base` was is replaced.
    ///
    /// # Errors
    /// [`MemFault::TooLarge`] when the image would reach [`BASE`], or
    /// [`MemFault::Overlaps`] when it overlaps another allocation.
    pub fn alloc_image(&mut self, base: u64, serial: u64, bytes: &[u8]) -> Result<(), MemFault> {
        let len = bytes.len() as u64;
        let too_large = MemFault::TooLarge { bytes: len };
        if let Some(k) = self.allocs.iter().position(|a| a.base == base && matches!(a.kind, Kind::Image(_))) {
            if self.allocs[k].kind == Kind::Image(serial) {
                return Ok(());
            }
            self.allocs.remove(k);
        }
        let end = base.checked_add(len).ok_or(too_large)?;
        if end > BASE {
            return Err(too_large);
        }
        let i = self.allocs.partition_point(|a| a.base < base);
        let below = i.checked_sub(1).map(|k| &self.allocs[k]);
        if below.is_some_and(|a| a.base + a.len.max(1) > base)
            || self.allocs.get(i).is_some_and(|a| a.base < end)
        {
            return Err(MemFault::Overlaps { addr: base, bytes: len });
        }
        // With unified addressing, at its own address in the host's too, so that host
        // code reaches the module's variables in place (`__managed__` ones); where
        // that address is taken, in ptxvm's memory alone, as without.
        let mapped = if self.unified {
            Words::mapped_at(base, usize::try_from(len.div_ceil(8)).ok().unwrap_or(0))
        } else {
            None
        };
        let words = match mapped {
            Some(w) => w,
            None => zeroed(len).ok_or(too_large)?,
        };
        let label = Some("the module's variables".into());
        self.allocs.insert(i, Allocation { base, len, words, kind: Kind::Image(serial), label });
        self.write_bytes(base, bytes)
    }

    /// Frees the data image of program `serial`, if placed.
    pub fn free_image(&mut self, serial: u64) {
        self.allocs.retain(|a| a.kind != Kind::Image(serial));
    }

    /// Names the allocation at `base` in fault reports.
    pub fn label(&mut self, base: u64, label: impl Into<Box<str>>) {
        if let Some(a) = self.allocs.iter_mut().find(|a| a.base == base) {
            a.label = Some(label.into());
        }
    }

    /// `e` in words, an out-of-bounds access placed against the nearest allocation, as
    /// compute-sanitizer places it: `4 bytes past the end of args[2] (80 bytes at
    /// 0x7f0000000100)`.
    pub fn explain(&self, e: MemFault) -> String {
        let MemFault::OutOfBounds { addr, size } = e else { return e.to_string() };
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let below = i.checked_sub(1).map(|k| &self.allocs[k]);
        let above = self.allocs.get(i);
        let access = format!("out of bounds: the {size}-byte access at 0x{addr:x}");
        let name = |a: &Allocation| {
            let what = a.label.as_deref().unwrap_or("an allocation");
            format!("{what} ({} bytes at 0x{:x})", a.len, a.base)
        };
        // A stale pointer into memory freed lately (a use after free).
        if self.was_freed(addr)
            && let Some(a) =
                self.quarantine.iter().rev().find(|a| (a.base..a.base + a.len.max(1)).contains(&addr))
        {
            return format!("{access} (offset {}) is in memory already freed: {}", addr - a.base, name(a));
        }
        // Bytes past the end of the allocation below, before the start of the one above.
        let past = below.map(|a| (addr.saturating_add(size).saturating_sub(a.base + a.len), a));
        let before = above.map(|a| (a.base - addr, a));
        match (past, before) {
            (Some((n, a)), b) if b.is_none_or(|(m, _)| n <= m) => {
                let at = addr - a.base;
                format!("{access} (offset {at}) reaches {n} bytes past the end of {}", name(a))
            }
            (_, Some((m, a))) => format!("{access} starts {m} bytes before {}", name(a)),
            _ => e.to_string(),
        }
    }

    /// The allocation holding `addr`, if any.
    #[inline]
    fn find(&self, addr: u64) -> Option<&Allocation> {
        let i = self.allocs.partition_point(|a| a.base <= addr);
        self.allocs.get(i.checked_sub(1)?)
    }

    /// The allocation and the offset of an aligned access of `size` bytes.
    fn locate(&self, addr: u64, size: u64) -> Result<(&Allocation, u64), MemFault> {
        if !addr.is_multiple_of(size) {
            return Err(MemFault::Misaligned { addr, size });
        }
        let oob = MemFault::OutOfBounds { addr, size };
        let a = self.find(addr).ok_or(oob)?;
        let end = addr.checked_add(size).ok_or(oob)?;
        if end > a.base + a.len {
            return Err(oob);
        }
        Ok((a, addr - a.base))
    }

    /// Loads `size` (1, 2, 4 or 8) bytes, zero-extended.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to `size`.
    pub fn load(&self, addr: u64, size: u64) -> Result<u64, MemFault> {
        let (a, off) = self.locate(addr, size)?;
        Ok(a.load(off, size))
    }

    /// Stores the low `size` (1, 2, 4 or 8) bytes of `bits`.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to `size`.
    pub fn store(&self, addr: u64, size: u64, bits: u64) -> Result<(), MemFault> {
        let (a, off) = self.locate(addr, size)?;
        a.store(off, size, bits);
        Ok(())
    }

    /// Loads the `n` elements of `size` bytes of an `ld.v2`/`ld.v4` at `addr` as one
    /// access: single-copy atomic, as an H100 performs a naturally aligned vector of
    /// up to 16 bytes and as CUB's decoupled look-back relies on (a tile's status
    /// and value stored together by one `st.relaxed.v2.u32`). The ISA lets the
    /// elements go in any order (PTX ISA 8.2.4); all at once is one of those orders.
    /// A vector of 8 bytes or fewer is one word; a 16-byte one is two words under
    /// a lock that every 16-byte vector access at that address takes.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to the
    /// whole vector.
    pub fn load_vec(&self, addr: u64, n: u8, size: u8) -> Result<[u64; 4], MemFault> {
        let (n, size) = (usize::from(n), u64::from(size));
        let whole = n as u64 * size;
        let (a, off) = self.locate(addr, whole)?;
        let mut out = [0u64; 4];
        let mut split = |bits: u64, from: usize| {
            for (k, v) in out.iter_mut().enumerate().skip(from).take(8 / size as usize) {
                *v = (bits >> ((k - from) as u64 * size * 8)) & field(size, 0);
            }
        };
        if whole <= 8 {
            split(a.load(off, whole), 0);
        } else if whole > 16 {
            for (k, v) in out.iter_mut().enumerate().take(n) {
                *v = a.load(off + k as u64 * size, size);
            }
        } else {
            let w = (off / 8) as usize;
            let (lo, hi) = {
                let _held = VectorLock::take(addr);
                (a.word(w), a.word(w + 1))
            };
            split(lo, 0);
            split(hi, n / 2);
        }
        Ok(out)
    }

    /// Stores the `n` elements of `size` bytes of an `st.v2`/`st.v4` at `addr` as
    /// one access, as [`GlobalMemory::load_vec`] loads them.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to the
    /// whole vector.
    pub fn store_vec(&self, addr: u64, n: u8, size: u8, vals: &[u64; 4]) -> Result<(), MemFault> {
        let (n, size) = (usize::from(n), u64::from(size));
        let whole = n as u64 * size;
        let (a, off) = self.locate(addr, whole)?;
        let join = |from: usize, count: usize| {
            vals[from..from + count]
                .iter()
                .enumerate()
                .fold(0u64, |acc, (k, v)| acc | ((v & field(size, 0)) << (k as u64 * size * 8)))
        };
        if whole <= 8 {
            a.store(off, whole, join(0, n));
        } else if whole > 16 {
            for (k, v) in vals.iter().enumerate().take(n) {
                a.store(off + k as u64 * size, size, *v);
            }
        } else {
            let w = (off / 8) as usize;
            let (lo, hi) = (join(0, n / 2), join(n / 2, n / 2));
            let _held = VectorLock::take(addr);
            a.words[w].store(lo, Relaxed);
            a.words[w + 1].store(hi, Relaxed);
        }
        Ok(())
    }

    /// The allocation that every lane of `lanes` accesses with `size` bytes at
    /// `addrs`, aligned, when there is one: then a warp's access needs no per-lane
    /// lookup. `None` sends the caller lane by lane (to find which lane faults).
    #[inline(always)]
    fn row(&self, addrs: &[u64; 32], lanes: u32, size: u64) -> Option<&Allocation> {
        let first = addrs[lanes.trailing_zeros() as usize % 32];
        let a = self.find(first)?;
        // In bounds: every offset from the base is at most `span` (an address below
        // the base wraps to a huge offset). Aligned: no lane has a low bit set that a
        // power-of-two `size` forbids. Both are reductions, one vector loop each.
        let span = a.len.checked_sub(size)?;
        let (mut far, mut low) = (0u64, 0u64);
        if lanes == u32::MAX {
            for &x in addrs {
                far = far.max(x.wrapping_sub(a.base));
                low |= x;
            }
        } else {
            for (l, &x) in addrs.iter().enumerate() {
                let x = if lanes & 1 << l != 0 { x } else { first };
                far = far.max(x.wrapping_sub(a.base));
                low |= x;
            }
        }
        (far <= span && low & (size - 1) == 0).then_some(a)
    }

    /// Loads `size` bytes for each lane of `lanes` into that lane of `out` (a
    /// register row: lanes outside `lanes` keep their value).
    ///
    /// # Errors
    /// The first lane (lowest) whose access faults, and why; lanes before it loaded.
    #[inline(always)]
    pub fn load_row<T: RowBits>(
        &self,
        addrs: &[u64; 32],
        lanes: u32,
        size: u64,
        out: &mut [T; 32],
    ) -> Result<(), (u32, MemFault)> {
        if let Some(a) = self.row(addrs, lanes, size) {
            let (words, base, mask) = (&a.words[..], a.base, field(size, 0));
            // Called only for lanes of `lanes`.
            let get = |x: u64| {
                let off = x.wrapping_sub(base);
                let w = (off / 8) as usize;
                debug_assert!(w < words.len());
                // SAFETY: `row` found every lane of `lanes` at an offset of at most
                // `a.len - size` from `base`, and `words` holds `a.len.div_ceil(8)`
                // words (`zeroed`), so `w` is in bounds. (The check skipped costs 5%
                // of a load-heavy kernel such as gemm.)
                let word = unsafe { words.get_unchecked(w) };
                T::from_bits(word.load(Relaxed) >> (off % 8 * 8) & mask)
            };
            if lanes == u32::MAX {
                for (o, &x) in out.iter_mut().zip(addrs) {
                    *o = get(x);
                }
            } else {
                for (l, o) in out.iter_mut().enumerate() {
                    if lanes & 1 << l != 0 {
                        *o = get(addrs[l]);
                    }
                }
            }
            return Ok(());
        }
        for l in 0..32u32 {
            if lanes & 1 << l != 0 {
                let v = self.load(addrs[l as usize], size).map_err(|e| (l, e))?;
                out[l as usize] = T::from_bits(v);
            }
        }
        Ok(())
    }

    /// Stores the low `size` bytes of `values` for each lane of `lanes`, in lane
    /// order.
    ///
    /// # Errors
    /// The first lane (lowest) whose access faults, and why; lanes before it stored.
    #[inline(always)]
    pub fn store_row(
        &self,
        addrs: &[u64; 32],
        lanes: u32,
        size: u64,
        values: &[u64; 32],
    ) -> Result<(), (u32, MemFault)> {
        if let Some(a) = self.row(addrs, lanes, size) {
            // A whole warp storing 32 consecutive 4-byte values from a word boundary
            // (the common coalesced store) fills 16 words: one store each.
            let first = addrs[0];
            let mut run = lanes == u32::MAX && size == 4 && (first - a.base).is_multiple_of(8);
            for (l, &x) in addrs.iter().enumerate() {
                run &= x == first.wrapping_add(4 * l as u64);
            }
            if run {
                let w = ((first - a.base) / 8) as usize;
                for (k, word) in a.words[w..w + 16].iter().enumerate() {
                    word.store(values[2 * k] & 0xffff_ffff | values[2 * k + 1] << 32, Relaxed);
                }
                return Ok(());
            }
            for (l, &v) in values.iter().enumerate() {
                if lanes & 1 << l != 0 {
                    a.store(addrs[l] - a.base, size, v);
                }
            }
            return Ok(());
        }
        for l in 0..32u32 {
            if lanes & 1 << l != 0 {
                self.store(addrs[l as usize], size, values[l as usize]).map_err(|e| (l, e))?;
            }
        }
        Ok(())
    }

    /// Atomically applies `f` to the `size`-byte value at `addr` (4 or 8 bytes, as
    /// `atom` allows); returns the old value.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to `size`.
    pub fn atomic(&self, addr: u64, size: u64, f: impl Fn(u64) -> u64) -> Result<u64, MemFault> {
        let (a, off) = self.locate(addr, size)?;
        let shift = (off % 8) * 8;
        let mask = field(size, shift);
        let old = a.words[(off / 8) as usize]
            .fetch_update(Relaxed, Relaxed, |word| {
                let v = (word & mask) >> shift;
                Some((word & !mask) | ((f(v) << shift) & mask))
            })
            .unwrap_or(0);
        Ok((old & mask) >> shift)
    }

    /// The allocation holding all of `addr..addr + len`.
    fn span(&self, addr: u64, len: u64) -> Result<&Allocation, MemFault> {
        let oob = MemFault::OutOfBounds { addr, size: len };
        let a = self.find(addr).ok_or(oob)?;
        match addr.checked_add(len) {
            Some(end) if end <= a.base + a.len => Ok(a),
            _ => Err(oob),
        }
    }

    /// Copies bytes into device memory (host to device).
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] unless the whole range is inside one allocation.
    pub fn write_bytes(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let a = self.span(addr, data.len() as u64)?;
        let mut off = addr - a.base;
        let mut rest = data;
        // Byte by byte up to a word boundary, then whole words (large copies on
        // every core), then the tail.
        while !off.is_multiple_of(8) && !rest.is_empty() {
            a.store(off, 1, u64::from(rest[0]));
            (off, rest) = (off + 1, &rest[1..]);
        }
        let whole = rest.len() / 8 * 8;
        let first = (off / 8) as usize;
        let words = &a.words[first..first + whole / 8];
        rest[..whole].par_chunks(8 * COPY_CHUNK).zip(words.par_chunks(COPY_CHUNK)).for_each(
            |(bytes, words)| {
                for (c, w) in bytes.chunks_exact(8).zip(words) {
                    w.store(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]), Relaxed);
                }
            },
        );
        off += whole as u64;
        for &b in &rest[whole..] {
            a.store(off, 1, u64::from(b));
            off += 1;
        }
        Ok(())
    }

    /// `len` bytes of device memory at `addr`, in a new vector (device to host).
    /// Unlike [`GlobalMemory::read_bytes`] into a zeroed buffer, the vector is
    /// written once, on every core: zeroing 16 MB first is one core's work.
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] unless the whole range is inside one allocation.
    pub fn read_to_vec(&self, addr: u64, len: usize) -> Result<Vec<u8>, MemFault> {
        let a = self.span(addr, len as u64)?;
        let off = addr - a.base;
        if !off.is_multiple_of(8) {
            let mut out = vec![0u8; len];
            self.read_bytes(addr, &mut out)?;
            return Ok(out);
        }
        // The words covering the range exist: `off + len <= a.len`, and the
        // allocation holds `a.len.div_ceil(8)` words.
        let first = (off / 8) as usize;
        let words = &a.words[first..first + len.div_ceil(8)];
        let bytes: Vec<[u8; 8]> =
            words.par_iter().with_min_len(COPY_CHUNK).map(|w| w.load(Relaxed).to_le_bytes()).collect();
        let mut out = bytes.into_flattened();
        out.truncate(len);
        Ok(out)
    }

    /// Copies bytes out of device memory (device to host).
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] unless the whole range is inside one allocation.
    pub fn read_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let a = self.span(addr, out.len() as u64)?;
        let off = addr - a.base;
        if off.is_multiple_of(8) {
            // Whole words (large copies on every core), then the tail.
            let first = (off / 8) as usize;
            let done = out.len() / 8 * 8;
            let words = &a.words[first..first + done / 8];
            out[..done].par_chunks_mut(8 * COPY_CHUNK).zip(words.par_chunks(COPY_CHUNK)).for_each(
                |(bytes, words)| {
                    for (c, w) in bytes.chunks_exact_mut(8).zip(words) {
                        c.copy_from_slice(&w.load(Relaxed).to_le_bytes());
                    }
                },
            );
            for (k, b) in out[done..].iter_mut().enumerate() {
                *b = a.word(first + done / 8).to_le_bytes()[k];
            }
            return Ok(());
        }
        for (k, b) in out.iter_mut().enumerate() {
            let off = off + k as u64;
            *b = (a.word((off / 8) as usize) >> ((off % 8) * 8)) as u8;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_disjoint_and_bounded() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(10).unwrap();
        let b = m.alloc(4).unwrap();
        assert_eq!(a, BASE);
        assert_eq!(b % ALIGN, 0);
        assert!(b >= a + 10);
        assert_eq!(m.load(a + 8, 2), Ok(0));
        assert_eq!(m.load(a + 10, 1), Err(MemFault::OutOfBounds { addr: a + 10, size: 1 }));
        assert_eq!(m.load(a + 8, 4), Err(MemFault::OutOfBounds { addr: a + 8, size: 4 }));
        assert_eq!(m.load(0, 4), Err(MemFault::OutOfBounds { addr: 0, size: 4 }));
        assert_eq!(m.load(a + 2, 4), Err(MemFault::Misaligned { addr: a + 2, size: 4 }));
        assert_eq!(m.store(b + 4, 1, 7), Err(MemFault::OutOfBounds { addr: b + 4, size: 1 }));
        assert!(m.alloc(u64::MAX).is_err());
    }

    #[test]
    fn out_of_bounds_accesses_are_placed_against_the_nearest_allocation() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(10).unwrap();
        let b = m.alloc(12).unwrap();
        m.label(b, "args[1]");
        let text = |addr: u64, size: u64| m.explain(m.load(addr, size).unwrap_err());
        // Past the end of an unnamed allocation, and straddling the end of a named one.
        assert!(
            text(a + 12, 4).ends_with(
                "(offset 12) reaches 6 bytes past the end of an allocation (10 bytes at 0x7f0000000000)"
            ),
            "{}",
            text(a + 12, 4)
        );
        assert!(
            text(b + 12, 4).contains("reaches 4 bytes past the end of args[1] (12 bytes"),
            "{}",
            text(b + 12, 4)
        );
        assert!(
            text(b + 8, 8).contains("(offset 8) reaches 4 bytes past the end of args[1]"),
            "{}",
            text(b + 8, 8)
        );
        // Closer to the start of the next allocation than to the end of the previous one.
        assert!(text(b - 4, 4).contains("starts 4 bytes before args[1]"), "{}", text(b - 4, 4));
        // Below every allocation.
        assert!(text(8, 4).contains("starts"), "{}", text(8, 4));
        assert_eq!(
            m.explain(MemFault::Misaligned { addr: 3, size: 4 }),
            MemFault::Misaligned { addr: 3, size: 4 }.to_string()
        );
    }

    #[test]
    fn allocations_made_from_bytes_hold_them_and_no_more() {
        let mut m = GlobalMemory::default();
        let data: Vec<u8> = (0..300_013u32).map(|k| (k.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
        let a = m.alloc_from(&data).unwrap();
        let b = m.alloc_from(&[7, 8, 9]).unwrap();
        assert_eq!(m.read_to_vec(a, data.len()).unwrap(), data);
        // 300,013 = 8 * 37,501 + 5: the last word's tail is not part of the buffer.
        assert_eq!(m.load(a + 300_012, 1), Ok(u64::from(data[300_012])));
        let end = a + data.len() as u64;
        assert_eq!(m.load(end, 1), Err(MemFault::OutOfBounds { addr: end, size: 1 }));
        assert!(b % ALIGN == 0 && b >= end);
        assert_eq!(m.load(b, 2), Ok(0x0807));
        assert_eq!(m.load(b + 2, 1), Ok(9));
        // From a reader: the same words; a short reader is an error.
        let c = m.alloc_from_reader(data.len() as u64, &mut data.as_slice()).unwrap();
        assert_eq!(m.read_to_vec(c, data.len()).unwrap(), data);
        assert!(m.alloc_from_reader(10, &mut [1u8, 2].as_slice()).is_err());
        // Freed, the range faults; a second free, or one inside it, is an error.
        m.free(b).unwrap();
        assert_eq!(m.load(b, 1), Err(MemFault::OutOfBounds { addr: b, size: 1 }));
        assert!(m.free(b).is_err() && m.free(a + 8).is_err());
        assert_eq!(m.load(a, 1), Ok(u64::from(data[0])));
    }

    #[test]
    fn large_host_copies_round_trip_at_any_alignment() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(1 << 20).unwrap();
        let data: Vec<u8> = (0..700_001u32).map(|k| (k.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for skew in [0u64, 1, 3, 4] {
            m.write_bytes(a + skew, &data).unwrap();
            let mut back = vec![0u8; data.len()];
            m.read_bytes(a + skew, &mut back).unwrap();
            assert_eq!(back, data, "skew {skew}");
            assert_eq!(m.load(a + skew + 12, 1), Ok(u64::from(data[12])));
        }
        assert!(m.write_bytes(a + (1 << 20) - 3, &data[..4]).is_err());
    }

    #[test]
    fn a_64_bit_load_never_sees_a_64_bit_atomic_half_done() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(8).unwrap();
        let start = 0xffff_ff00u64;
        m.store(a, 8, start).unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                for _ in 0..2000 {
                    m.atomic(a, 8, |v| v + 1).unwrap();
                }
            });
            s.spawn(|| {
                for _ in 0..20_000 {
                    let v = m.load(a, 8).unwrap();
                    assert!((start..=start + 2000).contains(&v), "torn value {v:#x}");
                }
            });
        });
        assert_eq!(m.load(a, 8), Ok(start + 2000));
    }

    /// A status and a value stored together by one vector store are seen together,
    /// for 8-byte (`v2.u32`) and 16-byte (`v2.u64`, `v4.u32`) vectors.
    #[test]
    fn a_vector_load_never_sees_a_vector_store_half_done() {
        for (n, size) in [(2u8, 4u8), (2, 8), (4, 4), (4, 2)] {
            let mut m = GlobalMemory::default();
            let a = m.alloc(16).unwrap();
            let (m, rounds) = (&m, 3000u64);
            let mask = field(u64::from(size), 0);
            std::thread::scope(|s| {
                s.spawn(move || {
                    for i in 1..=rounds {
                        let v = [i & mask; 4];
                        m.store_vec(a, n, size, &v).unwrap();
                    }
                });
                s.spawn(move || {
                    for _ in 0..30_000 {
                        let v = m.load_vec(a, n, size).unwrap();
                        let first = v[0];
                        assert!(v[..usize::from(n)].iter().all(|&e| e == first), "torn vector {v:x?}");
                    }
                });
            });
            let last = m.load_vec(a, n, size).unwrap();
            assert_eq!(last[usize::from(n) - 1], rounds & mask);
            assert_eq!(m.load_vec(a + 4, 2, 4), Err(MemFault::Misaligned { addr: a + 4, size: 8 }));
        }
    }

    #[test]
    fn a_row_load_fills_only_its_lanes_and_names_the_first_bad_one() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(256).unwrap();
        let bytes: Vec<u8> = (0..=255).collect();
        m.write_bytes(a, &bytes).unwrap();
        let addrs: [u64; 32] = std::array::from_fn(|l| a + 4 * ((l as u64 * 7) % 64));
        let mut row = [0xdead_beefu32; 32];
        m.load_row(&addrs, 0x0000_ffff, 4, &mut row).unwrap();
        for l in 0..32 {
            let want = if l < 16 { m.load(addrs[l], 4).unwrap() as u32 } else { 0xdead_beef };
            assert_eq!(row[l], want, "lane {l}");
        }
        // Lane 9 reads past the end, lane 12 is misaligned: lane 9 is named.
        let mut bad = addrs;
        bad[9] = a + 256;
        bad[12] = a + 2;
        assert_eq!(
            m.load_row(&bad, u32::MAX, 4, &mut row),
            Err((9, MemFault::OutOfBounds { addr: a + 256, size: 4 }))
        );
        // An inactive lane's address is never checked.
        m.load_row(&bad, !(1 << 9 | 1 << 12), 4, &mut row).unwrap();
        let mut wide = [0u64; 32];
        m.load_row(&addrs.map(|x| x & !7), u32::MAX, 8, &mut wide).unwrap();
        assert_eq!(wide[1], m.load(addrs[1] & !7, 8).unwrap());
    }

    #[test]
    fn read_to_vec_equals_read_bytes_for_every_start_and_length() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(301).unwrap();
        let data: Vec<u8> = (0..301u32).map(|i| (i * 7 + 3) as u8).collect();
        m.write_bytes(a, &data).unwrap();
        for start in [0usize, 1, 5, 8, 16, 100, 296, 301] {
            for len in [0usize, 1, 7, 8, 9, 64, 301 - start] {
                if start + len > 301 {
                    continue;
                }
                let got = m.read_to_vec(a + start as u64, len).unwrap();
                assert_eq!(got, &data[start..start + len], "start {start} len {len}");
            }
        }
        assert_eq!(m.read_to_vec(a + 300, 2), Err(MemFault::OutOfBounds { addr: a + 300, size: 2 }));
        // A large one goes through the parallel path in pieces.
        let b = m.alloc(1 << 20).unwrap();
        let big: Vec<u8> = (0..1u32 << 20).map(|i| (i ^ i >> 8) as u8).collect();
        m.write_bytes(b, &big).unwrap();
        assert_eq!(m.read_to_vec(b, 1 << 20).unwrap(), big);
    }

    #[test]
    fn whole_warp_stores_match_lane_by_lane_stores() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(1024).unwrap();
        let values: [u64; 32] = std::array::from_fn(|l| 0x1111_0000 + l as u64 * 0x1_0001);
        for (start, lanes) in [(0u64, u32::MAX), (4, u32::MAX), (8, 0xffff_fff0), (64, u32::MAX)] {
            let addrs: [u64; 32] = std::array::from_fn(|l| a + start + 4 * l as u64);
            m.write_bytes(a, &[0xee; 1024]).unwrap();
            m.store_row(&addrs, lanes, 4, &values).unwrap();
            let mut out = [0u64; 32];
            m.load_row(&addrs, u32::MAX, 4, &mut out).unwrap();
            for l in 0..32 {
                let want = if lanes >> l & 1 == 1 { values[l] & 0xffff_ffff } else { 0xeeee_eeee };
                assert_eq!(out[l], want, "start {start} lane {l}");
            }
            // The bytes around the run are untouched.
            if start >= 4 {
                assert_eq!(m.load(a + start - 4, 4), Ok(0xeeee_eeee));
            }
            assert_eq!(m.load(a + start + 128, 4), Ok(0xeeee_eeee));
        }
    }

    #[test]
    fn sub_word_stores_keep_their_neighbours() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(16).unwrap();
        m.write_bytes(a, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]).unwrap();
        m.store(a + 2, 2, 0xbeef).unwrap();
        m.store(a + 9, 1, 0xff).unwrap();
        m.store(a + 12, 4, 0xdead_beef).unwrap();
        let mut out = [0u8; 16];
        m.read_bytes(a, &mut out).unwrap();
        assert_eq!(out, [1, 2, 0xef, 0xbe, 5, 6, 7, 8, 9, 0xff, 11, 12, 0xef, 0xbe, 0xad, 0xde]);
        assert_eq!(m.load(a, 8), Ok(u64::from_le_bytes([1, 2, 0xef, 0xbe, 5, 6, 7, 8])));
    }

    #[test]
    fn atomics_from_many_threads_lose_no_update() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(16).unwrap();
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..10_000 {
                        m.atomic(a + 4, 4, |v| v.wrapping_add(1)).unwrap();
                        m.atomic(a + 8, 8, |v| v + 3).unwrap();
                        // Neighbouring sub-word stores race with the atomics above.
                        m.store(a, 2, 0x1234).unwrap();
                    }
                });
            }
        });
        assert_eq!(m.load(a + 4, 4), Ok(80_000));
        assert_eq!(m.load(a + 8, 8), Ok(240_000));
        assert_eq!(m.load(a, 2), Ok(0x1234));
    }
}
