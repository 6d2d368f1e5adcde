//! `cuGetExportTable`: the driver's private function tables, which NVIDIA's CUDA
//! runtime (linked statically into most programs nvcc builds) and libnvrtc ask for
//! by UUID. Their layouts are undocumented; what is known of them (the UUIDs, each
//! slot's signature and what the runtime does with it) was learnt by ZLUDA's authors
//! and by watching NVIDIA's runtime call ptxvm. ptxvm serves:
//!
//! | table | what the runtime does with it |
//! | --- | --- |
//! | runtime interface (`runtime.rs`) | loads the program's fat binaries as modules, gets the primary context |
//! | context-local storage (`storage.rs`) | keeps its per-context state with the context |
//! | tools TLS and callback hooks (`tools.rs`) | buffers a profiler would fill |
//! | context creation bypass (`runtime.rs`) | creates a context |
//! | heap access (`tools.rs`) | the device heap's records |
//! | extended device attributes (`tools.rs`) | attributes beyond `cuDeviceGetAttribute` |
//! | integrity check (`integrity.rs`) | proves the driver is NVIDIA's to the runtime |
//! | context checks (`tools.rs`) | asks whether a context is a wrapped one |
//! | context tools (`tools.rs`, CUDA 13's runtime) | asked for at start-up; none of its 94 slots called so far |
//!
//! libnvrtc asks for one more (`da9151d3-3ae6-cc41-a5c0-4f26d533e328`), which no one
//! has documented: it gets the answer for an unknown table, and compiles without it.
//!
//! Each table is a `static` array of function pointers; slot 0 of most holds the
//! table's size in bytes. A slot ptxvm does not know is never NULL: it holds a
//! function that says which slot was called (once, and with `PTXVM_LOG=api` each
//! time) and returns `CUDA_ERROR_NOT_SUPPORTED`, so a runtime newer than this list
//! gets an error instead of a jump to address 0. An unknown table gets NVIDIA's
//! answer, `CUDA_ERROR_INVALID_VALUE`, with a line under `PTXVM_LOG=api`.

mod integrity;
mod runtime;
pub mod storage;
mod tools;

use crate::error;
use crate::types::CUresult;
use std::ffi::c_void;

/// One slot: a function's address, or a number (slot 0's size).
pub(crate) type Slot = *const c_void;

/// A table as the runtime reads it: `N` pointer-sized slots.
#[repr(C)]
pub(crate) struct Table<const N: usize>(pub [Slot; N]);

// SAFETY: the slots are addresses of functions and constants, never written after
// the table is built.
unsafe impl<const N: usize> Sync for Table<N> {}

/// The most slots any table has.
const MAX_SLOTS: usize = 128;

impl<const N: usize> Table<N> {
    /// A table whose every slot says it is not served (table number `T`), with the
    /// table's size in bytes in slot 0 when `sized`.
    pub(crate) const fn new<const T: usize>(sized: bool) -> Table<N> {
        let all = unserved_slots::<T>();
        let mut slots = [std::ptr::null(); N];
        let mut i = 0;
        while i < N {
            slots[i] = all[i];
            i += 1;
        }
        if sized {
            slots[0] = (N * size_of::<usize>()) as Slot;
        }
        Table(slots)
    }

    /// The table with `f` in slot `i`.
    pub(crate) const fn with(mut self, i: usize, f: Slot) -> Table<N> {
        self.0[i] = f;
        self
    }

    fn start(&'static self) -> *const c_void {
        self.0.as_ptr().cast()
    }
}

/// Every table ptxvm serves: its UUID (the bytes `cuGetExportTable` is handed), its
/// name for messages, and its address.
fn tables() -> [([u8; 16], &'static str, *const c_void); 10] {
    [
        (runtime::RUNTIME_ID, "runtime interface", runtime::RUNTIME.start()),
        (runtime::BYPASS_ID, "context creation bypass", runtime::BYPASS.start()),
        (storage::STORAGE_ID, "context-local storage", storage::STORAGE.start()),
        (tools::TLS_ID, "tools TLS", tools::TLS.start()),
        (tools::HOOKS_ID, "tools callback hooks", tools::HOOKS.start()),
        (tools::HEAP_ID, "heap access", tools::HEAP.start()),
        (tools::DEVICE_ID, "extended device attributes", tools::DEVICE.start()),
        (integrity::INTEGRITY_ID, "integrity check", integrity::INTEGRITY.start()),
        (tools::CHECKS_ID, "context checks", tools::CHECKS.start()),
        (tools::CONTEXT_ID, "context tools", tools::CONTEXT.start()),
    ]
}

/// The name of table number `t` (its index in [`tables`]), for messages.
fn table_name(t: usize) -> &'static str {
    tables().get(t).map_or("?", |t| t.1)
}

/// The address of the table with UUID `id`, if ptxvm serves it.
pub fn find(id: &[u8; 16]) -> Option<*const c_void> {
    tables().iter().find(|t| &t.0 == id).map(|t| t.2)
}

/// `CUuuid` bytes as CUDA tools print them.
pub fn uuid_text(id: &[u8; 16]) -> String {
    let hex: Vec<String> = id.iter().map(|b| format!("{b:02x}")).collect();
    let h = hex.concat();
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

/// The function in every slot ptxvm does not serve: table `T`, slot `S`. The caller
/// passes whatever its slot takes; the first five argument registers are only
/// printed (under `PTXVM_LOG=api`), never read as pointers.
extern "C" fn unserved<const T: usize, const S: usize>(
    a0: usize,
    a1: usize,
    a2: usize,
    a3: usize,
    a4: usize,
) -> CUresult {
    crate::entry(
        "cuGetExportTable's table",
        || format!("{a0:#x}, {a1:#x}, {a2:#x}, {a3:#x}, {a4:#x}"),
        || {
            let why = format!(
                "NVIDIA's runtime called slot {S} of the driver's private table `{}`, which ptxvm does not serve",
                table_name(T)
            );
            Err(said_once(T * MAX_SLOTS + S, error::NOT_SUPPORTED, why))
        },
    )
}

/// `code`, with `why` on stderr the first time key `k` fails and under
/// `PTXVM_LOG=api` every time.
fn said_once(k: usize, code: CUresult, why: String) -> CUresult {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SAID: Mutex<Option<HashSet<usize>>> = Mutex::new(None);
    let first = SAID.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashSet::new).insert(k);
    if first || crate::config::get().log_api {
        eprintln!("ptxvm: {why}");
    }
    code
}

/// Table `T`'s [`unserved`] functions, one per slot.
const fn unserved_slots<const T: usize>() -> [Slot; MAX_SLOTS] {
    macro_rules! slots {
        ($($s:literal)*) => { [$(unserved::<T, $s> as Slot),*] };
    }
    slots!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127
    )
}

crate::api! {
    fn cuGetExportTable(pp_export_table: *mut *const c_void, p_export_table_id: *const c_void) {
        if pp_export_table.is_null() || p_export_table_id.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `const CUuuid *`: 16 bytes.
        let id = unsafe { *p_export_table_id.cast::<[u8; 16]>() };
        match find(&id) {
            Some(table) => {
                if crate::config::get().log_api {
                    let name = tables().iter().find(|t| t.0 == id).map_or("?", |t| t.1);
                    eprintln!("ptxvm api: cuGetExportTable: table {} ({name})", uuid_text(&id));
                }
                crate::out(pp_export_table, table)
            }
            None => {
                if crate::config::get().log_api {
                    eprintln!("ptxvm api: cuGetExportTable: table {} is not one ptxvm has", uuid_text(&id));
                }
                crate::out(pp_export_table, std::ptr::null())?;
                Err(error::INVALID_VALUE)
            }
        }
    }
}
