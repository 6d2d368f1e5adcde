//! The bytes behind a global-memory allocation: a run of `AtomicU64` words that
//! ptxvm owns (aligned to 256 bytes, as `cudaMalloc`'s are, so that with unified
//! addressing the words' host address can be the device address), or a range of the
//! host program's own memory lent to kernels (`cuMemHostRegister`).
//!
//! One representation for both (a pointer, a length and whether to free), so the
//! hot loops index one slice type whatever the allocation is. The `unsafe` of global
//! memory lives here: allocating and freeing with the layout used, viewing lent
//! host memory as words, and mapping a module's variables at their own address in
//! the host's address space (unified addressing: host code reads `__managed__`
//! variables in place).

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// The alignment of every owned allocation's words.
pub const WORDS_ALIGN: usize = 256;

/// A run of words, owned or lent.
pub struct Words {
    ptr: NonNull<AtomicU64>,
    len: usize,
    /// The layout it was allocated with, when ptxvm owns it; `None` for lent memory.
    owned: Option<Layout>,
    /// The bytes mapped at a fixed address ([`Words::mapped_at`]), unmapped on drop.
    mapped: usize,
}

// SAFETY: `Words` is a shared slice of atomics (`&[AtomicU64]` is Send and Sync);
// owned words are freed only by `Drop`, with `&mut self`.
unsafe impl Send for Words {}
// SAFETY: as above: every access through it is an atomic operation on a word.
unsafe impl Sync for Words {}

impl Words {
    /// `n` zeroed words aligned to [`WORDS_ALIGN`]; `None` when the host cannot give
    /// that much memory (an error for the caller, not an abort).
    pub fn zeroed(n: usize) -> Option<Words> {
        let bytes = n.checked_mul(8)?.max(8);
        let layout = Layout::from_size_align(bytes, WORDS_ALIGN).ok()?;
        // SAFETY: `layout` has a non-zero size. Zeroed bytes are valid `AtomicU64`s.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let ptr = NonNull::new(raw.cast::<AtomicU64>())?;
        Some(Words { ptr, len: n, owned: Some(layout), mapped: 0 })
    }

    /// `n` zeroed words mapped at host address `addr` (page-aligned), which must be
    /// free in the host's address space; `None` when it is not, or on a host other
    /// than Linux (whose `MAP_FIXED_NOREPLACE` makes the request safe).
    pub fn mapped_at(addr: u64, n: usize) -> Option<Words> {
        #[cfg(target_os = "linux")]
        {
            let bytes = n.checked_mul(8)?.max(8);
            // SAFETY: an anonymous private mapping at a fixed address that
            // MAP_FIXED_NOREPLACE refuses (instead of replacing) when anything is
            // mapped there already; nothing else is touched.
            let p = unsafe {
                libc::mmap(
                    addr as usize as *mut libc::c_void,
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
                    -1,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                return None;
            }
            if p as usize as u64 != addr {
                // An old kernel that takes the flag as a hint: not the address asked for.
                // SAFETY: the mapping just made, of `bytes` bytes.
                unsafe { libc::munmap(p, bytes) };
                return None;
            }
            let ptr = NonNull::new(p.cast::<AtomicU64>())?;
            Some(Words { ptr, len: n, owned: None, mapped: bytes })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (addr, n);
            None
        }
    }

    /// The host program's memory at `addr..addr + 8 n` viewed as words, for kernels to
    /// read and write in place.
    ///
    /// # Safety
    /// `addr` is 8-byte aligned, and the `8 n` bytes there stay allocated and are
    /// accessed only atomically or not at all by Rust code while the returned `Words`
    /// lives (the C caller of `cuMemHostRegister` promises the memory outlives the
    /// registration; ptxvm drops the `Words` at `cuMemHostUnregister`).
    pub unsafe fn lent(addr: u64, n: usize) -> Option<Words> {
        let ptr = NonNull::new(addr as usize as *mut AtomicU64)?;
        Some(Words { ptr, len: n, owned: None, mapped: 0 })
    }

    /// The host address of the first word.
    pub fn addr(&self) -> u64 {
        self.ptr.as_ptr() as usize as u64
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];

    #[inline(always)]
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` points at `len` initialised words (zeroed by `zeroed`, or the
        // caller's memory as `lent` requires) that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        if let Some(layout) = self.owned {
            // SAFETY: `ptr` came from `alloc_zeroed(layout)` and is freed only here.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
        }
        #[cfg(target_os = "linux")]
        if self.mapped != 0 {
            // SAFETY: `ptr` is the mapping `mapped_at` made, of `mapped` bytes, unmapped
            // only here.
            unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.mapped) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn owned_words_are_zeroed_aligned_and_sized() {
        let w = Words::zeroed(5).unwrap();
        assert_eq!(w.len(), 5);
        assert_eq!(w.addr() % WORDS_ALIGN as u64, 0);
        assert!(w.iter().all(|x| x.load(Relaxed) == 0));
        assert!(Words::zeroed(usize::MAX / 4).is_none());
        assert_eq!(Words::zeroed(0).unwrap().len(), 0);
    }

    #[test]
    fn lent_words_are_the_host_memory_itself() {
        let mut host = vec![0u64; 4];
        let addr = host.as_mut_ptr() as usize as u64;
        {
            // SAFETY: `host` outlives `w` and is not touched while `w` lives.
            let w = unsafe { Words::lent(addr, 4) }.unwrap();
            w[2].store(0x1234, Relaxed);
        }
        assert_eq!(host, [0, 0, 0x1234, 0]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn mapped_words_sit_at_their_address_and_leave_it_free() {
        // A page-aligned address far from the heap and the libraries; the test needs
        // one of these free.
        let addr = (0x5a00_0000_0000u64..).step_by(1 << 32).take(16).find(|&a| {
            let w = Words::mapped_at(a, 1024);
            w.is_some()
        });
        let addr = addr.expect("some address of the 16 is free");
        let w = Words::mapped_at(addr, 1024).expect("dropping the mapping freed its address");
        assert_eq!(w.addr(), addr);
        assert!(w.iter().all(|x| x.load(Relaxed) == 0));
        w[7].store(0x55, Relaxed);
        // SAFETY: the mapping is alive (`w`), and the word is in it.
        assert_eq!(unsafe { *((addr + 56) as usize as *const u64) }, 0x55);
        // Taken: a second mapping there is refused, not laid over the first.
        assert!(Words::mapped_at(addr, 1).is_none());
        // Not page-aligned: refused.
        assert!(Words::mapped_at(addr + 8 + (1 << 31), 1).is_none());
    }
}
