//! Context-local storage: the runtime keeps its state for each context (its
//! modules, streams, ...) under a key of its own, with a callback that frees it
//! when the context goes.

use super::{Slot, Table};
use crate::error;
use crate::state;
use crate::types::{CUresult, Handle};
use std::ffi::c_void;

pub(super) const STORAGE_ID: [u8; 16] =
    [0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93];

pub(super) static STORAGE: Table<4> =
    Table::new::<2>(false).with(0, put as Slot).with(1, remove as Slot).with(2, get as Slot);

/// What frees a value when its context goes: called with the context, the key and
/// the value.
pub type Destructor = Option<unsafe extern "C" fn(Handle, *mut c_void, *mut c_void)>;

/// One stored value.
#[derive(Clone, Copy)]
pub struct Stored {
    pub key: usize,
    pub value: usize,
    pub destructor: Destructor,
}

/// `ctx`, or the current context when it is NULL. The runtime asks before it has
/// made a context current, and expects `CUDA_ERROR_INVALID_CONTEXT` then, so this
/// says nothing on stderr.
fn context(d: &state::Driver, ctx: Handle) -> Result<u64, CUresult> {
    let c = if ctx.is_null() { state::top().unwrap_or(0) } else { ctx as u64 };
    if d.contexts.contains_key(&c) { Ok(c) } else { Err(error::INVALID_CONTEXT) }
}

/// Slot 0: stores `value` under `key` in context `ctx`.
unsafe extern "C" fn put(
    ctx: Handle,
    key: *mut c_void,
    value: *mut c_void,
    destructor: Destructor,
) -> CUresult {
    crate::entry("context-local storage: put", String::new, || {
        state::with(|d| {
            let c = context(d, ctx)?;
            let stored = &mut d.contexts.get_mut(&c).ok_or(error::INVALID_CONTEXT)?.storage;
            let entry = Stored { key: key as usize, value: value as usize, destructor };
            match stored.iter_mut().find(|s| s.key == key as usize) {
                Some(s) => *s = entry,
                None => stored.push(entry),
            }
            Ok(())
        })
    })
}

/// Slot 1: forgets `key` in context `ctx`, without calling its destructor.
unsafe extern "C" fn remove(ctx: Handle, key: *mut c_void) -> CUresult {
    crate::entry("context-local storage: remove", String::new, || {
        state::with(|d| {
            let c = context(d, ctx)?;
            let stored = &mut d.contexts.get_mut(&c).ok_or(error::INVALID_CONTEXT)?.storage;
            stored.retain(|s| s.key != key as usize);
            Ok(())
        })
    })
}

/// Slot 2: the value stored under `key` in context `ctx`;
/// `CUDA_ERROR_INVALID_HANDLE` when there is none.
unsafe extern "C" fn get(value: *mut *mut c_void, ctx: Handle, key: *mut c_void) -> CUresult {
    crate::entry("context-local storage: get", String::new, || {
        let found = state::with(|d| {
            let c = context(d, ctx)?;
            Ok(d.contexts[&c].storage.iter().find(|s| s.key == key as usize).map(|s| s.value))
        })?;
        match found {
            Some(v) => crate::out(value, v as *mut c_void),
            None => Err(error::INVALID_HANDLE),
        }
    })
}
