//! User objects (`cuUserObjectCreate`): a program's resource with a destructor and a
//! reference count, which graphs can hold; and the device's graph memory
//! attributes, what graphs' own allocations hold.

use crate::error;
use crate::state::{self, Driver};
use crate::types::{CUdevice, CUresult, Handle};
use std::ffi::c_void;
use std::sync::Mutex;

/// A user object: the program's pointer, its destructor, and its references.
pub struct UserObject {
    pub ptr: usize,
    pub destroy: unsafe extern "C" fn(*mut c_void),
    pub refs: u64,
}

/// Destructors due, run by [`run_due`] once the driver's lock is let go.
static DUE: Mutex<Vec<(unsafe extern "C" fn(*mut c_void), usize)>> = Mutex::new(Vec::new());

/// Runs the destructors of user objects whose last reference went; called at the
/// end of every driver call, without the driver's lock (they may call the driver).
pub fn run_due() {
    let due = std::mem::take(&mut *DUE.lock().unwrap_or_else(|e| e.into_inner()));
    for (destroy, ptr) in due {
        // SAFETY: the program's destructor with its own pointer, as it registered
        // them with cuUserObjectCreate.
        unsafe { destroy(ptr as *mut c_void) };
    }
}

impl Driver {
    /// Drops `count` references to user object `o`; at none, its destructor is due.
    ///
    /// # Errors
    /// `CUDA_ERROR_INVALID_HANDLE` when `o` is not a user object.
    pub fn release_object(&mut self, o: u64, count: u32) -> Result<(), CUresult> {
        let obj = self
            .user_objects
            .get_mut(&o)
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{o:x} is not a user object")))?;
        obj.refs = obj.refs.saturating_sub(u64::from(count));
        if obj.refs == 0
            && let Some(obj) = self.user_objects.remove(&o)
        {
            DUE.lock().unwrap_or_else(|e| e.into_inner()).push((obj.destroy, obj.ptr));
        }
        Ok(())
    }

    /// Takes `count` more references to user object `o`.
    ///
    /// # Errors
    /// `CUDA_ERROR_INVALID_HANDLE` when `o` is not a user object.
    pub fn retain_object(&mut self, o: u64, count: u32) -> Result<(), CUresult> {
        let obj = self
            .user_objects
            .get_mut(&o)
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{o:x} is not a user object")))?;
        obj.refs += u64::from(count);
        Ok(())
    }

    /// Bytes that graphs' own allocations hold now.
    pub fn graph_memory(&self) -> u64 {
        self.graph_allocs.keys().filter_map(|a| self.allocs.get(a)).map(|a| a.bytes).sum()
    }
}

crate::api! {
    fn cuUserObjectCreate(object_out: *mut Handle, ptr: *mut c_void, destroy: crate::types::CUhostFn, initial_refcount: u32, flags: u32) {
        // CU_USER_OBJECT_NO_DESTRUCTOR_SYNC is required, as CUDA requires it.
        let Some(destroy) = destroy else { return Err(error::INVALID_VALUE) };
        if initial_refcount == 0 || flags != 1 || object_out.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let o = state::with(|d| {
            let o = d.handle();
            d.user_objects.insert(o, UserObject { ptr: ptr as usize, destroy, refs: u64::from(initial_refcount) });
            Ok(o)
        })?;
        crate::out(object_out, o as Handle)
    }

    fn cuUserObjectRetain(object: Handle, count: u32) {
        if count == 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| d.retain_object(object as u64, count))
    }

    fn cuUserObjectRelease(object: Handle, count: u32) {
        if count == 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| d.release_object(object as u64, count))
    }

    fn cuGraphRetainUserObject(graph: Handle, object: Handle, count: u32, flags: u32) {
        // CU_GRAPH_USER_OBJECT_MOVE (1) hands over the caller's references.
        if count == 0 || flags > 1 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            d.graph(graph)?;
            if flags == 0 {
                d.retain_object(object as u64, count)?;
            } else if !d.user_objects.contains_key(&(object as u64)) {
                return Err(crate::fail(error::INVALID_HANDLE, format!("{object:?} is not a user object")));
            }
            let g = d.graph(graph)?;
            match g.objects.iter_mut().find(|o| o.0 == object as u64) {
                Some(o) => o.1 += count,
                None => g.objects.push((object as u64, count)),
            }
            Ok(())
        })
    }

    fn cuGraphReleaseUserObject(graph: Handle, object: Handle, count: u32) {
        if count == 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            let g = d.graph(graph)?;
            let held = g.objects.iter_mut().find(|o| o.0 == object as u64).filter(|o| o.1 >= count).ok_or_else(|| {
                crate::fail(error::INVALID_VALUE, format!("the graph holds fewer than {count} references to {object:?}"))
            })?;
            held.1 -= count;
            g.objects.retain(|o| o.1 > 0);
            d.release_object(object as u64, count)
        })
    }

    fn cuDeviceGraphMemTrim(device: CUdevice) {
        // Graphs hold only what their allocations hold: nothing to give back.
        crate::device::check(device)
    }

    fn cuDeviceGetGraphMemAttribute(device: CUdevice, attr: u32, value: *mut c_void) {
        crate::device::check(device)?;
        let v = state::with(|d| {
            let now = d.graph_memory();
            d.graph_memory_high = d.graph_memory_high.max(now);
            // USED_MEM_CURRENT, _HIGH, RESERVED_MEM_CURRENT, _HIGH: what is held is
            // what is reserved.
            match attr {
                0 | 2 => Ok(now),
                1 | 3 => Ok(d.graph_memory_high),
                _ => Err(crate::fail(error::INVALID_VALUE, format!("graph memory attribute {attr} is not one CUDA has"))),
            }
        })?;
        crate::out(value.cast::<u64>(), v)
    }

    fn cuDeviceSetGraphMemAttribute(device: CUdevice, attr: u32, value: *mut c_void) {
        crate::device::check(device)?;
        if value.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `cuuint64_t*`.
        let v = unsafe { *value.cast::<u64>() };
        // Only the high-water marks reset, to the current use.
        if !matches!(attr, 1 | 3) || v != 0 {
            return Err(crate::fail(error::INVALID_VALUE, "only a high-water mark may be set, and only to 0"));
        }
        state::with(|d| {
            d.graph_memory_high = d.graph_memory();
            Ok(())
        })
    }
}
