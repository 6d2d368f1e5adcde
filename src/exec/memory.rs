//! Global memory: device allocations with bounds, shared by every CTA of a launch.
//!
//! CTAs run on several host threads, so memory is `AtomicU64` words accessed with
//! `Relaxed` ordering (plain moves on x86) and sub-word stores are compare-exchange
//! loops on their word: sound Rust without `unsafe`, and a racy PTX program gets
//! some interleaving of whole stores, never torn bytes or undefined behaviour in
//! ptxvm itself. Any access outside an allocation, or not aligned to its size, is a
//! [`MemFault`] (DESIGN.md, "Memory"). Addresses start high (like CUDA's) so that a
//! null or small integer used as a pointer faults.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

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
}

struct Allocation {
    base: u64,
    len: u64,
    words: Box<[AtomicU64]>,
}

/// The device's global memory.
#[derive(Default)]
pub struct GlobalMemory {
    /// Sorted by base address.
    allocs: Vec<Allocation>,
}

impl GlobalMemory {
    /// Allocates `len` zeroed bytes; returns the device address.
    ///
    /// # Errors
    /// [`MemFault::TooLarge`] when the size cannot be represented.
    pub fn alloc(&mut self, len: u64) -> Result<u64, MemFault> {
        let words = len.div_ceil(8);
        let too_large = MemFault::TooLarge { bytes: len };
        let count = usize::try_from(words).map_err(|_| too_large)?;
        let base = match self.allocs.last() {
            Some(a) if a.base >= BASE => {
                (a.base + a.len.max(1)).div_ceil(ALIGN).checked_mul(ALIGN).ok_or(too_large)?
            }
            _ => BASE,
        };
        base.checked_add(len).ok_or(too_large)?;
        self.allocs.push(Allocation { base, len, words: (0..count).map(|_| AtomicU64::new(0)).collect() });
        Ok(base)
    }

    /// Places `bytes` at the fixed address `base`, below [`BASE`] (a module's data
    /// image). Nothing happens when an allocation already starts there.
    ///
    /// # Errors
    /// [`MemFault::TooLarge`] when the image would reach [`BASE`] or overlap another.
    pub fn alloc_at(&mut self, base: u64, bytes: &[u8]) -> Result<(), MemFault> {
        let len = bytes.len() as u64;
        let too_large = MemFault::TooLarge { bytes: len };
        let i = self.allocs.partition_point(|a| a.base < base);
        if self.allocs.get(i).is_some_and(|a| a.base == base) {
            return Ok(());
        }
        let end = base.checked_add(len).ok_or(too_large)?;
        if end > BASE || self.allocs.get(i).is_some_and(|a| a.base < end) {
            return Err(too_large);
        }
        let words = (0..len.div_ceil(8)).map(|_| AtomicU64::new(0)).collect();
        self.allocs.insert(i, Allocation { base, len, words });
        self.write_bytes(base, bytes)
    }

    /// The allocation and the word index of an aligned access of `size` bytes.
    fn locate(&self, addr: u64, size: u64) -> Result<(&Allocation, usize), MemFault> {
        if !addr.is_multiple_of(size) {
            return Err(MemFault::Misaligned { addr, size });
        }
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let oob = MemFault::OutOfBounds { addr, size };
        let a = self.allocs.get(i.checked_sub(1).ok_or(oob)?).ok_or(oob)?;
        let end = addr.checked_add(size).ok_or(oob)?;
        if end > a.base + a.len {
            return Err(oob);
        }
        Ok((a, ((addr - a.base) / 8) as usize))
    }

    /// Loads `size` (1, 2, 4 or 8) bytes, zero-extended.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to `size`.
    pub fn load(&self, addr: u64, size: u64) -> Result<u64, MemFault> {
        let (a, w) = self.locate(addr, size)?;
        let word = a.words[w].load(Relaxed);
        let shift = (addr % 8) * 8;
        Ok(if size == 8 { word } else { (word >> shift) & ((1u64 << (size * 8)) - 1) })
    }

    /// Stores the low `size` (1, 2, 4 or 8) bytes of `bits`.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to `size`.
    pub fn store(&self, addr: u64, size: u64, bits: u64) -> Result<(), MemFault> {
        let (a, w) = self.locate(addr, size)?;
        if size == 8 {
            a.words[w].store(bits, Relaxed);
            return Ok(());
        }
        let shift = (addr % 8) * 8;
        let mask = ((1u64 << (size * 8)) - 1) << shift;
        let _ =
            a.words[w].fetch_update(Relaxed, Relaxed, |old| Some((old & !mask) | ((bits << shift) & mask)));
        Ok(())
    }

    /// Atomically applies `f` to the `size`-byte value at `addr` (4 or 8 bytes, as
    /// `atom` allows); returns the old value.
    ///
    /// # Errors
    /// [`MemFault`] for an access outside an allocation or not aligned to `size`.
    pub fn atomic(&self, addr: u64, size: u64, f: impl Fn(u64) -> u64) -> Result<u64, MemFault> {
        let (a, w) = self.locate(addr, size)?;
        let shift = (addr % 8) * 8;
        let mask = if size == 8 { u64::MAX } else { ((1u64 << (size * 8)) - 1) << shift };
        let old = a.words[w]
            .fetch_update(Relaxed, Relaxed, |word| {
                let v = (word & mask) >> shift;
                Some((word & !mask) | ((f(v) << shift) & mask))
            })
            .unwrap_or(0);
        Ok((old & mask) >> shift)
    }

    /// Copies bytes into device memory (host to device).
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] unless the whole range is inside one allocation.
    pub fn write_bytes(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        for (k, &b) in data.iter().enumerate() {
            self.store(addr + k as u64, 1, u64::from(b))?;
        }
        Ok(())
    }

    /// Copies bytes out of device memory (device to host).
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] unless the whole range is inside one allocation.
    pub fn read_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        for (k, b) in out.iter_mut().enumerate() {
            *b = self.load(addr + k as u64, 1)? as u8;
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
