//! The link step (`cuLink*`) on PTX inputs: ptxvm's library joins them into one
//! module ([`ptxvm::api::link`]), resolving `.extern` functions and variables across
//! them, and the image `cuLinkComplete` hands back is that module's PTX text, which
//! `cuModuleLoadData` and `cuLibraryLoadData` accept. Machine code (cubins, fatbins,
//! objects) is refused with how to keep PTX.

use crate::error;
use crate::module::Logs;
use crate::state;
use crate::types::{CUresult, Handle};
use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::sync::Mutex;

/// `CUjitInputType`: PTX, and fat binaries for the PTX inside them.
const INPUT_PTX: u32 = 1;
const INPUT_FATBINARY: u32 = 2;

struct Link {
    inputs: Vec<(String, String)>,
    logs: Logs,
    /// The linked image, NUL-terminated, kept until `cuLinkDestroy`.
    image: Option<Vec<u8>>,
}

// SAFETY: `Logs` holds the caller's log buffers, used only from calls on this link
// state, which cuda.h lets a program make from any thread one at a time.
unsafe impl Send for Link {}

static LINKS: Mutex<Option<HashMap<u64, Link>>> = Mutex::new(None);

fn with<R>(state_: Handle, f: impl FnOnce(&mut Link) -> Result<R, CUresult>) -> Result<R, CUresult> {
    let mut links = LINKS.lock().unwrap_or_else(|e| e.into_inner());
    let link = links
        .get_or_insert_with(HashMap::new)
        .get_mut(&(state_ as u64))
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{state_:?} is not a link state")))?;
    f(link)
}

/// Adds input `bytes` named `name` of type `kind`.
fn add(state_: Handle, kind: u32, bytes: &[u8], name: String) -> Result<(), CUresult> {
    let unpacked;
    let bytes = if kind == INPUT_FATBINARY {
        unpacked = crate::module::unpack(bytes)
            .map_err(|(code, why)| crate::fail(code, format!("{name}: {why}")))?;
        &unpacked[..]
    } else {
        bytes
    };
    if kind != INPUT_PTX && kind != INPUT_FATBINARY {
        let why = format!(
            "{name}: input type {kind} is machine code or an archive; ptxvm links PTX (CU_JIT_INPUT_PTX): \
             build with `-arch=sm_90` or `nvcc -ptx` to keep PTX"
        );
        return Err(crate::fail(error::NO_BINARY_FOR_GPU, why));
    }
    let text = &bytes[..bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len())];
    let text = String::from_utf8(text.to_vec())
        .map_err(|_| crate::fail(error::INVALID_PTX, format!("{name}: not PTX text")))?;
    with(state_, |l| {
        l.inputs.push((name, text));
        Ok(())
    })
}

crate::api! {
    fn cuLinkCreate_v2(num_options: u32, options: *const u32, option_values: *mut *mut c_void, state_out: *mut Handle) {
        if state_out.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let logs = Logs::from_options(num_options, options, option_values)?;
        let h = state::with(|d| {
            d.ctx()?;
            Ok(d.handle())
        })?;
        let mut links = LINKS.lock().unwrap_or_else(|e| e.into_inner());
        links.get_or_insert_with(HashMap::new).insert(h, Link { inputs: Vec::new(), logs, image: None });
        crate::out(state_out, h as Handle)
    }

    fn cuLinkAddData_v2(state_: Handle, kind: u32, data: *mut c_void, size: usize, name: *const c_char, num_options: u32, options: *const u32, option_values: *mut *mut c_void) {
        let _ = (num_options, options, option_values);
        if data.is_null() || size == 0 {
            return Err(error::INVALID_VALUE);
        }
        let name = if name.is_null() { "input".to_string() } else { crate::c_string(name)?.to_string() };
        // SAFETY: the caller passes `size` bytes at `data`.
        let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size) };
        add(state_, kind, bytes, name)
    }

    fn cuLinkAddFile_v2(state_: Handle, kind: u32, path: *const c_char, num_options: u32, options: *const u32, option_values: *mut *mut c_void) {
        let _ = (num_options, options, option_values);
        let path = crate::c_string(path)?;
        let bytes = std::fs::read(path).map_err(|e| crate::fail(error::FILE_NOT_FOUND, format!("{path}: {e}")))?;
        add(state_, kind, &bytes, path.to_string())
    }

    fn cuLinkComplete(state_: Handle, cubin_out: *mut *mut c_void, size_out: *mut usize) {
        if cubin_out.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let (ptr, len) = with(state_, |l| match ptxvm::api::link(&l.inputs) {
            Ok(text) => {
                l.logs.write("");
                let mut image = text.into_bytes();
                image.push(0);
                let len = image.len();
                let ptr = l.image.insert(image).as_mut_ptr();
                Ok((ptr, len))
            }
            Err(why) => {
                l.logs.write(&why);
                eprint!("{why}");
                Err(crate::fail(error::INVALID_PTX, "the inputs do not link"))
            }
        })?;
        crate::out(cubin_out, ptr.cast::<c_void>())?;
        if !size_out.is_null() {
            crate::out(size_out, len)?;
        }
        Ok(())
    }

    fn cuLinkDestroy(state_: Handle) {
        let mut links = LINKS.lock().unwrap_or_else(|e| e.into_inner());
        links
            .get_or_insert_with(HashMap::new)
            .remove(&(state_ as u64))
            .map(|_| ())
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{state_:?} is not a link state")))
    }
}
