//! Contexts: the primary context and created ones, each thread's context stack, and
//! the limits a context keeps. Every context is on device 0 and shares its memory
//! (unified addressing); destroying one frees what was made in it.

use crate::error;
use crate::state::{self, Context, Driver};
use crate::types::{CUdevice, CUresult, Handle};
use std::collections::HashMap;

/// `CUlimit` values and their defaults, as CUDA gives them on an H100.
const LIMITS: &[(u32, &str, u64)] = &[
    (0, "stack size", 1024),
    (1, "printf FIFO size", 1 << 20),
    (2, "malloc heap size", 8 << 20),
    (3, "device runtime sync depth", 2),
    (4, "device runtime pending launch count", 2048),
    (5, "max L2 fetch granularity", 64),
    (6, "persisting L2 cache size", 0),
];
const LIMIT_MALLOC_HEAP: u32 = 2;

fn new_context(d: &mut Driver, flags: u32) -> u64 {
    let c = d.handle();
    d.contexts.insert(c, Context { flags, sticky: None, limits: HashMap::new(), storage: Vec::new() });
    c
}

fn create(pctx: *mut Handle, flags: u32, dev: CUdevice) -> Result<(), CUresult> {
    crate::device::check(dev)?;
    if pctx.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let c = state::with(|d| Ok(new_context(d, flags)))?;
    state::push(c);
    crate::out(pctx, c as Handle)
}

/// The primary context, made on first retain.
fn retain_primary(d: &mut Driver) -> u64 {
    match &mut d.primary {
        Some((c, n)) => {
            *n += 1;
            *c
        }
        None => {
            let flags = d.primary_flags;
            let c = new_context(d, flags);
            d.primary = Some((c, 1));
            c
        }
    }
}

/// `ctx`, or the current context when it is NULL.
fn context_or_current(d: &Driver, ctx: Handle) -> Result<u64, CUresult> {
    if ctx.is_null() {
        return d.current();
    }
    let c = ctx as u64;
    if d.contexts.contains_key(&c) {
        Ok(c)
    } else {
        Err(crate::fail(error::INVALID_CONTEXT, format!("{ctx:?} is not a context")))
    }
}

/// Before context `c` goes (destroyed, released or reset), calls the destructors of
/// what NVIDIA's runtime stored with it (its context-local storage), while the
/// context and what was made in it still live, and without the driver's lock: they
/// call back into the driver to free their state.
fn destruct(c: u64) {
    let stored = state::with(|d| {
        Ok(d.contexts.get_mut(&c).map(|x| std::mem::take(&mut x.storage)).unwrap_or_default())
    })
    .unwrap_or_default();
    for s in stored {
        if let Some(f) = s.destructor {
            // SAFETY: the runtime's callback with the context, key and value it
            // stored, as the table's contract says.
            unsafe { f(c as Handle, s.key as *mut std::ffi::c_void, s.value as *mut std::ffi::c_void) };
        }
    }
}

crate::api! {
    fn cuDevicePrimaryCtxRetain(pctx: *mut Handle, dev: CUdevice) {
        crate::device::check(dev)?;
        if pctx.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let c = state::with(|d| Ok(retain_primary(d)))?;
        crate::out(pctx, c as Handle)
    }

    fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) also cuDevicePrimaryCtxRelease {
        crate::device::check(dev)?;
        let last = state::with(|d| match d.primary {
            Some((c, n)) if n > 1 => {
                d.primary = Some((c, n - 1));
                Ok(None)
            }
            Some((c, _)) => Ok(Some(c)),
            None => Err(crate::fail(error::INVALID_CONTEXT, "the primary context is not retained")),
        })?;
        if let Some(c) = last {
            destruct(c);
            // Another thread may have retained it while the destructors ran: then
            // this release only drops its own reference.
            state::with(|d| {
                match d.primary {
                    Some((p, 1)) if p == c => {
                        d.primary = None;
                        d.destroy_context(c);
                    }
                    Some((p, n)) if p == c => d.primary = Some((p, n - 1)),
                    _ => {}
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    fn cuDevicePrimaryCtxReset_v2(dev: CUdevice) also cuDevicePrimaryCtxReset {
        crate::printf::flush();
        crate::device::check(dev)?;
        let Some(c) = state::with(|d| Ok(d.primary.map(|(c, _)| c)))? else { return Ok(()) };
        destruct(c);
        state::with(|d| {
            d.clear_context(c);
            if let Some(ctx) = d.contexts.get_mut(&c) {
                ctx.sticky = None;
                ctx.limits.clear();
            }
            Ok(())
        })
    }

    fn cuDevicePrimaryCtxGetState(dev: CUdevice, flags: *mut u32, active: *mut i32) {
        crate::device::check(dev)?;
        let (f, a) = state::with(|d| Ok((d.primary_flags, d.primary.is_some())))?;
        crate::out(flags, f)?;
        crate::out(active, i32::from(a))
    }

    fn cuDevicePrimaryCtxSetFlags_v2(dev: CUdevice, flags: u32) also cuDevicePrimaryCtxSetFlags {
        crate::device::check(dev)?;
        state::with(|d| {
            d.primary_flags = flags;
            if let Some((c, _)) = d.primary
                && let Some(ctx) = d.contexts.get_mut(&c)
            {
                ctx.flags = flags;
            }
            Ok(())
        })
    }

    fn cuCtxCreate_v2(pctx: *mut Handle, flags: u32, dev: CUdevice) also cuCtxCreate {
        create(pctx, flags, dev)
    }

    fn cuCtxCreate_v3(pctx: *mut Handle, params: *mut std::ffi::c_void, num_params: i32, flags: u32, dev: CUdevice) {
        // Execution affinity (SM counts) has no meaning without SMs to share.
        let _ = (params, num_params);
        create(pctx, flags, dev)
    }

    fn cuCtxCreate_v4(pctx: *mut Handle, params: *mut std::ffi::c_void, flags: u32, dev: CUdevice) {
        // The parameters (execution affinity, a CIG) are optional and have no effect.
        let _ = params;
        create(pctx, flags, dev)
    }

    fn cuCtxDestroy_v2(ctx: Handle) also cuCtxDestroy {
        crate::printf::flush();
        let c = ctx as u64;
        state::with(|d| {
            let primary = d.primary.is_some_and(|(p, _)| p == c);
            match d.contexts.get(&c) {
                Some(_) if primary => {
                    Err(crate::fail(error::INVALID_CONTEXT, "the primary context is released, not destroyed"))
                }
                Some(_) => Ok(()),
                None => Err(crate::fail(error::INVALID_CONTEXT, format!("0x{c:x} is not a context"))),
            }
        })?;
        destruct(c);
        state::with(|d| {
            d.destroy_context(c);
            Ok(())
        })?;
        if state::top() == Some(ctx as u64) {
            state::pop();
        }
        Ok(())
    }

    fn cuCtxPushCurrent_v2(ctx: Handle) also cuCtxPushCurrent {
        state::with(|d| {
            if d.contexts.contains_key(&(ctx as u64)) {
                Ok(())
            } else {
                Err(crate::fail(error::INVALID_CONTEXT, format!("{ctx:?} is not a context")))
            }
        })?;
        state::push(ctx as u64);
        Ok(())
    }

    fn cuCtxPopCurrent_v2(pctx: *mut Handle) also cuCtxPopCurrent {
        state::with(|_| Ok(()))?;
        let c = state::pop().ok_or_else(|| crate::fail(error::INVALID_CONTEXT, "no current context to pop"))?;
        if pctx.is_null() { Ok(()) } else { crate::out(pctx, c as Handle) }
    }

    fn cuCtxSetCurrent(ctx: Handle) {
        state::with(|d| {
            if ctx.is_null() || d.contexts.contains_key(&(ctx as u64)) {
                Ok(())
            } else {
                Err(crate::fail(error::INVALID_CONTEXT, format!("{ctx:?} is not a context")))
            }
        })?;
        state::set_top(ctx as u64);
        Ok(())
    }

    fn cuCtxGetCurrent(pctx: *mut Handle) {
        state::with(|_| Ok(()))?;
        crate::out(pctx, state::top().unwrap_or(0) as Handle)
    }

    fn cuCtxGetDevice(device: *mut CUdevice) {
        state::with(|d| d.current().map(|_| ()))?;
        crate::out(device, 0)
    }

    fn cuCtxGetDevice_v2(device: *mut CUdevice, ctx: Handle) {
        state::with(|d| context_or_current(d, ctx).map(|_| ()))?;
        crate::out(device, 0)
    }

    fn cuCtxGetId(ctx: Handle, ctx_id: *mut u64) {
        // A context's handle is never handed out twice: it serves as its ID.
        let c = state::with(|d| context_or_current(d, ctx))?;
        crate::out(ctx_id, c)
    }

    fn cuCtxSynchronize_v2(ctx: Handle) {
        crate::printf::flush();
        state::with(|d| {
            let c = context_or_current(d, ctx)?;
            d.contexts[&c].sticky.map_or(Ok(()), Err)
        })
    }

    fn cuCtxSetFlags(flags: u32) {
        state::with(|d| {
            let c = d.current()?;
            if let Some(ctx) = d.contexts.get_mut(&c) {
                ctx.flags = flags;
            }
            Ok(())
        })
    }

    fn cuCtxGetSharedMemConfig(config: *mut u32) {
        state::with(|d| d.current().map(|_| ()))?;
        // CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE, as sm_90 has.
        crate::out(config, 1)
    }

    fn cuCtxSetSharedMemConfig(config: u32) {
        // A preference that sm_90's fixed four-byte banks ignore, as on a GPU.
        if config > 2 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| d.current().map(|_| ()))
    }

    fn cuCtxResetPersistingL2Cache() {
        // ptxvm models no cache: nothing persists.
        state::with(|d| d.current().map(|_| ()))
    }

    fn cuDeviceCanAccessPeer(can_access_peer: *mut i32, dev: CUdevice, peer_dev: CUdevice) {
        // One device, which is not its own peer.
        crate::device::check(dev)?;
        crate::device::check(peer_dev)?;
        crate::out(can_access_peer, 0)
    }

    fn cuCtxEnablePeerAccess(peer_context: Handle, flags: u32) {
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            d.current()?;
            if !d.contexts.contains_key(&(peer_context as u64)) {
                return Err(crate::fail(error::INVALID_CONTEXT, format!("{peer_context:?} is not a context")));
            }
            Err(crate::fail(error::PEER_ACCESS_UNSUPPORTED, "every context is on the one device, which is not its own peer"))
        })
    }

    fn cuCtxDisablePeerAccess(peer_context: Handle) {
        state::with(|d| {
            d.current()?;
            if !d.contexts.contains_key(&(peer_context as u64)) {
                return Err(crate::fail(error::INVALID_CONTEXT, format!("{peer_context:?} is not a context")));
            }
            Err(error::PEER_ACCESS_NOT_ENABLED)
        })
    }

    fn cuCtxGetFlags(flags: *mut u32) {
        let f = state::with(|d| d.current().map(|c| d.contexts[&c].flags))?;
        crate::out(flags, f)
    }

    fn cuCtxSynchronize() {
        crate::printf::flush();
        // Work runs when it is enqueued: all of it is done; a fault's error stays.
        state::with(|d| d.ctx().map(|_| ()))
    }

    fn cuCtxGetApiVersion(ctx: Handle, version: *mut u32) {
        state::with(|d| {
            let c = if ctx.is_null() { d.current()? } else { ctx as u64 };
            if d.contexts.contains_key(&c) {
                Ok(())
            } else {
                Err(crate::fail(error::INVALID_CONTEXT, format!("0x{c:x} is not a context")))
            }
        })?;
        crate::out(version, crate::device::DRIVER_VERSION as u32)
    }

    fn cuCtxSetLimit(limit: u32, value: usize) {
        let Some(&(_, what, _)) = LIMITS.iter().find(|l| l.0 == limit) else {
            return Err(crate::fail(error::UNSUPPORTED_LIMIT, format!("limit {limit} is not supported")));
        };
        state::with(|d| {
            let c = d.ctx()?;
            if limit == LIMIT_MALLOC_HEAP {
                d.device
                    .set_heap_bytes(value as u64)
                    .map_err(|why| crate::fail(error::INVALID_VALUE, format!("{what}: {why}")))?;
            }
            if let Some(ctx) = d.contexts.get_mut(&c) {
                ctx.limits.insert(limit, value as u64);
            }
            Ok(())
        })
    }

    fn cuCtxGetLimit(pvalue: *mut usize, limit: u32) {
        let Some(&(_, _, default)) = LIMITS.iter().find(|l| l.0 == limit) else {
            return Err(crate::fail(error::UNSUPPORTED_LIMIT, format!("limit {limit} is not supported")));
        };
        let v = state::with(|d| {
            let c = d.current()?;
            Ok(d.contexts[&c].limits.get(&limit).copied().unwrap_or(default))
        })?;
        crate::out(pvalue, v as usize)
    }

    fn cuCtxGetStreamPriorityRange(least_priority: *mut i32, greatest_priority: *mut i32) {
        state::with(|d| d.current().map(|_| ()))?;
        if !least_priority.is_null() {
            crate::out(least_priority, 0)?;
        }
        if !greatest_priority.is_null() {
            crate::out(greatest_priority, -5)?;
        }
        Ok(())
    }

    fn cuCtxGetCacheConfig(config: *mut u32) {
        state::with(|d| d.current().map(|_| ()))?;
        crate::out(config, 0)
    }

    fn cuCtxSetCacheConfig(config: u32) {
        // A preference only, as on a GPU.
        let _ = config;
        state::with(|d| d.current().map(|_| ()))
    }
}
