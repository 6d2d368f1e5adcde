//! Device `printf` output, held as a GPU's printf FIFO holds it and written to the
//! program's stdout where CUDA flushes that FIFO (CUDA C++ Programming Guide,
//! "Formatted Output"): at the start of a kernel launch, at the synchronizing
//! calls (`cuCtxSynchronize`, `cuStreamSynchronize`, `cuEventSynchronize`), at
//! blocking copies, at module load and unload, at context destruction, before a
//! host callback or host function runs, and (unlike CUDA, which loses it) when
//! the process exits. Host text printed between a launch and the next of these
//! comes first, as on a GPU.

use std::ffi::c_void;
use std::io::Write;
use std::sync::Mutex;

/// Output held since the last flush. Its own lock, not the driver's: the flush at
/// exit must not wait on a driver call that exit interrupted.
static HELD: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Holds a launch's output until the next flush point.
pub fn hold(text: &[u8]) {
    if !text.is_empty() {
        HELD.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(text);
    }
}

/// Writes the held output to the program's stdout.
pub fn flush() {
    let text = std::mem::take(&mut *HELD.lock().unwrap_or_else(|e| e.into_inner()));
    write_stdout(&text);
}

/// Writes `text` where the program's own `printf` goes: C's `stdout`, so that
/// the two interleave as on a GPU.
fn write_stdout(text: &[u8]) {
    unsafe extern "C" {
        static mut stdout: *mut c_void;
        fn fwrite(ptr: *const c_void, size: usize, n: usize, stream: *mut c_void) -> usize;
        fn fflush(stream: *mut c_void) -> i32;
    }
    if text.is_empty() {
        return;
    }
    // SAFETY: `stdout` is C's standard output stream, set up before `main`; reading
    // the pointer copies it. `fwrite` reads `text.len()` bytes of `text`.
    unsafe {
        let out = stdout;
        if out.is_null() {
            let _ = std::io::stdout().write_all(text);
        } else {
            fwrite(text.as_ptr().cast(), 1, text.len(), out);
            if AT_EXIT.load(std::sync::atomic::Ordering::Relaxed) {
                fflush(out);
            }
        }
    }
}

/// Whether the process is exiting: C's buffers may be flushed already.
static AT_EXIT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn flush_at_exit() {
    AT_EXIT.store(true, std::sync::atomic::Ordering::Relaxed);
    // `try_lock`: exit may come from a thread that holds the lock mid-launch.
    if let Ok(mut held) = HELD.try_lock() {
        let text = std::mem::take(&mut *held);
        drop(held);
        write_stdout(&text);
    }
}

/// Flushes at exit (registered once, by `cuInit`).
pub fn flush_at_exit_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: `flush_at_exit` is an `extern "C" fn()` that never unwinds (it
        // only locks without waiting and writes).
        unsafe { libc::atexit(flush_at_exit) };
    });
}
