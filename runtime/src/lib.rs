//! `libcudart.so.13` for machines without a GPU: the CUDA runtime API, and the
//! registration ABI that nvcc's host stubs call, over ptxvm's `libcuda.so.1`
//! ([`driver`]). Programs built with `nvcc -cudart shared` run unmodified under
//! `ptxvm exec`: their fat binaries give PTX ([`ptxvm::fatbin`]), loaded when a
//! kernel of them is first launched; `<<<>>>` launches go to the driver.
//!
//! Every exported function is `unsafe extern "C"` with the contract
//! `cuda_runtime_api.h` documents; pointers are checked for NULL, handles by the
//! driver. A failing call is remembered for `cudaGetLastError`, as CUDA does.
//! No panic crosses the boundary.

#![allow(clippy::missing_safety_doc)]

pub mod api;
pub mod array;
pub mod cuda12;
pub mod driver;
pub mod error;
pub mod graph;
pub mod more;
pub mod props;
pub mod register;
pub mod texture;
pub mod unsupported;

use error::CudaError;
use std::cell::Cell;

thread_local! {
    /// The last error of a runtime call on this thread (`cudaGetLastError`).
    static LAST: Cell<CudaError> = const { Cell::new(0) };
}

/// Declares exported runtime functions; each body returns `Result<(), CudaError>`.
/// `also NAME` exports the same function under a second name: the `_ptds` and
/// `_ptsz` forms that `--default-stream per-thread` builds call. Work runs when it
/// is enqueued, so the per-thread default stream orders work as the legacy one.
#[macro_export]
macro_rules! rt {
    ($($(#[$doc:meta])* fn $name:ident $params:tt $(also $alias:ident)? $body:block)*) => {$(
        $crate::rt!(@one [$(#[$doc])*] $name $params [$($alias)?] $body);
    )*};
    (@one [$($doc:tt)*] $name:ident ($($arg:ident: $ty:ty),* $(,)?) [$($alias:ident)?] $body:block) => {
        $($doc)*
        #[unsafe(no_mangle)]
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $crate::error::CudaError {
            $crate::entry(
                stringify!($name),
                || {
                    let parts: Vec<String> = vec![$(format!("{}={:?}", stringify!($arg), $arg)),*];
                    parts.join(", ")
                },
                move || -> Result<(), $crate::error::CudaError> { $body },
            )
        }
        $crate::rt!(@alias $name ($($arg: $ty),*) $($alias)?);
    };
    (@alias $name:ident ($($arg:ident: $ty:ty),*)) => {};
    (@alias $name:ident ($($arg:ident: $ty:ty),*) $alias:ident) => {
        #[doc = concat!("`", stringify!($name), "`, under the name `", stringify!($alias), "`.")]
        #[unsafe(no_mangle)]
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub unsafe extern "C" fn $alias($($arg: $ty),*) -> $crate::error::CudaError {
            // SAFETY: the same function, with the caller's arguments.
            unsafe { $name($($arg),*) }
        }
    };
}

/// Exports runtime functions that ptxvm does not implement: each answers
/// `cudaErrorNotSupported` (remembered for `cudaGetLastError`), says so on stderr
/// the first time, and is named by `PTXVM_LOG=api` each time. Their arguments
/// are never read (the C calling convention lets a callee ignore them).
#[macro_export]
macro_rules! unsupported {
    ($($name:ident)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: not implemented.")]
        #[unsafe(no_mangle)]
        #[allow(non_snake_case)]
        pub extern "C" fn $name() -> $crate::error::CudaError {
            $crate::entry(stringify!($name), || String::from("..."), || Err($crate::not_supported(stringify!($name))))
        }
    )*};
}

/// `cudaErrorNotSupported` for a function ptxvm does not implement, said on
/// stderr once per function.
pub fn not_supported(name: &'static str) -> CudaError {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SAID: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let first = SAID.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashSet::new).insert(name);
    if first {
        eprintln!("ptxvm: {name} is not implemented: it returns cudaErrorNotSupported");
    }
    error::NOT_SUPPORTED
}

/// Runs a runtime function's body: catches panics, remembers a failure for
/// `cudaGetLastError`, and with `PTXVM_LOG=api` writes the call and its result.
pub fn entry(
    name: &'static str,
    args: impl FnOnce() -> String,
    body: impl FnOnce() -> Result<(), CudaError>,
) -> CudaError {
    let log = std::env::var("PTXVM_LOG").is_ok_and(|v| v.split(',').any(|w| w.trim() == "api"));
    let shown = log.then(args);
    let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok(())) => error::SUCCESS,
        Ok(Err(code)) => code,
        Err(_) => {
            eprintln!("ptxvm: internal error in {name}; please report it");
            999
        }
    };
    if code != error::SUCCESS {
        LAST.with(|l| l.set(code));
    }
    if let Some(args) = shown {
        eprintln!("ptxvm api: {name}({args}) = {}", error::name(code).unwrap_or("?"));
    }
    code
}

/// `code`, with why on stderr: `ptxvm: why`.
pub(crate) fn fail(code: CudaError, why: impl std::fmt::Display) -> CudaError {
    eprintln!("ptxvm: {why}");
    code
}

/// The runtime's error for a driver call's result.
pub fn check(code: u32) -> Result<(), CudaError> {
    if code == 0 { Ok(()) } else { Err(error::of_driver(code)) }
}

/// Writes `value` through out-pointer `p`.
///
/// # Errors
/// `cudaErrorInvalidValue` when `p` is NULL.
pub(crate) fn out<T>(p: *mut T, value: T) -> Result<(), CudaError> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL out-pointer of the declared type, writable (cuda_runtime_api.h).
    unsafe { p.write(value) };
    Ok(())
}

/// The last error, cleared (`cudaGetLastError`) or kept (`cudaPeekAtLastError`).
pub(crate) fn last_error(clear: bool) -> CudaError {
    LAST.with(|l| if clear { l.replace(0) } else { l.get() })
}
