//! `libcuda.so.1` for machines without a GPU: the CUDA driver API as `cuda.h` 13.x
//! declares it, over ptxvm's library API ([`ptxvm::api`]). One file per area of the
//! API (`device`, `context`, `memory`, `pointer`, `module`, `launch`, `stream`,
//! `error`, `proc`), each function a few lines that turn C types into the library
//! API's and the result into a `CUresult`. It knows nothing of the executor.
//!
//! # The contract with C
//! Every exported function is `unsafe extern "C"`: its safety contract is the one
//! `cuda.h` documents. Pointers the caller hands in are checked for NULL (which is
//! `CUDA_ERROR_INVALID_VALUE`); device pointers and handles are checked against what
//! ptxvm handed out (a stale or foreign one is a CUDA error, never undefined
//! behaviour in ptxvm); host pointers with a length (`cuMemcpyHtoD`'s source, say)
//! are trusted to be valid for that length, as NVIDIA's driver trusts them. No panic
//! crosses the boundary: [`entry`] catches it and answers `CUDA_ERROR_UNKNOWN`.
//!
//! Work runs when it is enqueued, so every stream is always idle; what a program can
//! observe (stream order, events, sticky errors, device `printf` output) is CUDA's.

#![allow(clippy::missing_safety_doc)]

pub mod advise;
pub mod array;
pub mod config;
pub mod context;
pub mod device;
pub mod error;
pub mod export;
pub mod graph;
pub mod launch;
pub mod library;
pub mod link;
pub mod memory;
pub mod module;
pub mod pointer;
pub mod pool;
pub mod printf;
pub mod proc;
pub mod state;
pub mod stream;
pub mod texture;
pub mod tma;
pub mod types;
pub mod unsupported;
pub mod vmm;

use std::cell::Cell;
use types::CUresult;

/// Declares exported driver functions: each becomes a `#[no_mangle] unsafe extern
/// "C"` function whose body runs inside [`entry`] and returns `Result<(), CUresult>`.
/// `also NAME, ...` exports the same function under more names: the `_ptds`/`_ptsz`
/// forms `cuda.h` gives with `CUDA_API_PER_THREAD_DEFAULT_STREAM` (nvcc's
/// `--default-stream per-thread`), or an older version of the same arguments. Work
/// runs as it is enqueued, in one order, so the per-thread default stream is the
/// legacy one.
#[macro_export]
macro_rules! api {
    ($($(#[$doc:meta])* fn $name:ident $params:tt $(also $($alias:ident),+)? $body:block)*) => {$(
        $crate::api!(@one [$(#[$doc])*] $name $params [$($($alias)+)?] $body);
    )*};
    (@one [$($doc:tt)*] $name:ident ($($arg:ident: $ty:ty),* $(,)?) [$($alias:ident)*] $body:block) => {
        $($doc)*
        #[unsafe(no_mangle)]
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $crate::types::CUresult {
            $crate::entry(
                stringify!($name),
                || {
                    let parts: Vec<String> = vec![$(format!("{}={:?}", stringify!($arg), $arg)),*];
                    parts.join(", ")
                },
                move || -> Result<(), $crate::types::CUresult> { $body },
            )
        }
        $crate::api!(@alias $name ($($arg: $ty),*) $($alias)*);
    };
    (@alias $name:ident ($($arg:ident: $ty:ty),*)) => {};
    (@alias $name:ident ($($arg:ident: $ty:ty),*) $alias:ident $($rest:ident)*) => {
        #[doc = concat!("`", stringify!($name), "`, under the name `", stringify!($alias), "`.")]
        #[unsafe(no_mangle)]
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub unsafe extern "C" fn $alias($($arg: $ty),*) -> $crate::types::CUresult {
            // SAFETY: the same function, with the caller's arguments.
            unsafe { $name($($arg),*) }
        }
        $crate::api!(@alias $name ($($arg: $ty),*) $($rest)*);
    };
}

/// Exports driver functions of `cuda.h` that ptxvm does not implement: each answers
/// `CUDA_ERROR_NOT_SUPPORTED`, says so on stderr the first time, and is named by
/// `PTXVM_LOG=api` each time. Their arguments are never read (the C calling
/// convention lets a callee ignore them).
#[macro_export]
macro_rules! unsupported {
    ($($name:ident)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: not implemented.")]
        #[unsafe(no_mangle)]
        #[allow(non_snake_case)]
        pub extern "C" fn $name() -> $crate::types::CUresult {
            $crate::entry(stringify!($name), || String::from("..."), || Err($crate::not_supported(stringify!($name))))
        }
    )*};
}

/// `CUDA_ERROR_NOT_SUPPORTED` for a function ptxvm does not implement, said on
/// stderr once per function.
pub fn not_supported(name: &'static str) -> CUresult {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SAID: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let first = SAID.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashSet::new).insert(name);
    if first {
        eprintln!("ptxvm: {name} is not implemented: it returns CUDA_ERROR_NOT_SUPPORTED");
    }
    error::NOT_SUPPORTED
}

thread_local! {
    /// The exported function running on this thread, for messages.
    static RUNNING: Cell<&'static str> = const { Cell::new("") };
}

/// Runs the body of exported function `name`: catches panics (an internal error,
/// `CUDA_ERROR_UNKNOWN`, with a message), and with `PTXVM_LOG=api` writes the call,
/// its arguments and its result to stderr.
pub fn entry(
    name: &'static str,
    args: impl FnOnce() -> String,
    body: impl FnOnce() -> Result<(), CUresult>,
) -> CUresult {
    let outer = RUNNING.with(|r| r.replace(name));
    let shown = config::get().log_api.then(args);
    let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok(())) => error::SUCCESS,
        Ok(Err(code)) => code,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            eprintln!("ptxvm: internal error in {name}: {what}; please report it");
            error::UNKNOWN
        }
    };
    if let Some(args) = shown {
        let code = error::name(result).unwrap_or("?");
        eprintln!("ptxvm api: {name}({args}) = {code}");
    }
    RUNNING.with(|r| r.set(outer));
    graph::objects::run_due();
    result
}

/// Says on stderr why the running function fails, and gives its error code.
pub fn fail(code: CUresult, why: impl std::fmt::Display) -> CUresult {
    let name = RUNNING.with(|r| r.get());
    eprintln!("ptxvm: {name}: {why}");
    code
}

/// Writes `value` through the caller's out-pointer `p`.
///
/// # Errors
/// `CUDA_ERROR_INVALID_VALUE` when `p` is NULL.
pub(crate) fn out<T>(p: *mut T, value: T) -> Result<(), CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL out-pointer of `cuda.h`'s type `T`, which the caller
    // provides writable (the contract of every driver function).
    unsafe { p.write(value) };
    Ok(())
}

/// The NUL-terminated string at `p`, which must be valid UTF-8.
///
/// # Errors
/// `CUDA_ERROR_INVALID_VALUE` when `p` is NULL or not UTF-8.
pub(crate) fn c_string<'a>(p: *const std::ffi::c_char) -> Result<&'a str, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL string argument, NUL-terminated as `cuda.h` requires.
    let c = unsafe { std::ffi::CStr::from_ptr(p) };
    c.to_str().map_err(|_| error::INVALID_VALUE)
}
