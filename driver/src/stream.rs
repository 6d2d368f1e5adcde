//! Streams, events and host callbacks. Work runs when it is enqueued, so a stream is
//! always idle and a recorded event has completed: `cuStreamQuery` and
//! `cuEventQuery` say so, an event's time is when it was recorded (real elapsed time
//! between two records), and a host function or callback runs at its place in the
//! stream's order, which is the moment it is enqueued. Callbacks run without the
//! driver's lock, so they may call the driver (CUDA forbids it; ptxvm allows it).

use crate::error;
use crate::state::{self, EventEntry, StreamEntry};
use crate::types::{CUhostFn, CUresult, CUstreamCallback, Handle};
use std::ffi::c_void;
use std::time::Instant;

/// `CU_EVENT_DISABLE_TIMING`.
const EVENT_DISABLE_TIMING: u32 = 0x2;

fn create(ph: *mut Handle, flags: u32, priority: i32) -> Result<(), CUresult> {
    if ph.is_null() || flags & !1 != 0 {
        return Err(error::INVALID_VALUE);
    }
    let s = state::with(|d| {
        let c = d.ctx()?;
        let s = d.handle();
        // Priorities run from 0 (lowest) to -5 (greatest), as on an H100.
        d.streams.insert(
            s,
            StreamEntry {
                ctx: c,
                flags,
                priority: priority.clamp(-5, 0),
                capture: None,
                attributes: Default::default(),
            },
        );
        Ok(s)
    })?;
    crate::out(ph, s as Handle)
}

fn stream_op(stream: Handle) -> Result<(), CUresult> {
    state::with(|d| {
        d.ctx()?;
        d.check_stream(stream as u64)
    })
}

/// Whether `e` is an event.
///
/// # Errors
/// `CUDA_ERROR_INVALID_HANDLE` when it is not.
pub(crate) fn check_event(d: &state::Driver, e: Handle) -> Result<(), CUresult> {
    event(d, e).map(|_| ())
}

fn event(d: &state::Driver, e: Handle) -> Result<&EventEntry, CUresult> {
    d.events
        .get(&(e as u64))
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{e:?} is not an event")))
}

/// `CUstreamAttrValue` (`CUlaunchAttributeValue`): 64 bytes.
pub type AttrValue = [u8; 64];
/// `CU_LAUNCH_ATTRIBUTE_PRIORITY`, which is the stream's priority.
const ATTRIBUTE_PRIORITY: u32 = 8;

/// Stream attribute `attr` of `stream` (a default stream's are all zero).
fn get_attribute(d: &state::Driver, stream: u64, attr: u32) -> Result<AttrValue, CUresult> {
    d.check_stream(stream)?;
    let Some(s) = d.streams.get(&stream) else { return Ok([0; 64]) };
    let mut v = s.attributes.get(&attr).copied().unwrap_or([0; 64]);
    if attr == ATTRIBUTE_PRIORITY {
        v[..4].copy_from_slice(&s.priority.to_le_bytes());
    }
    Ok(v)
}

fn set_attribute(d: &mut state::Driver, stream: u64, attr: u32, v: AttrValue) -> Result<(), CUresult> {
    d.check_stream(stream)?;
    if !matches!(attr, 1 | 3 | 8 | 9 | 10) {
        return Err(crate::fail(
            error::INVALID_VALUE,
            format!("stream attribute {attr} is not one a stream takes"),
        ));
    }
    let Some(s) = d.streams.get_mut(&stream) else {
        return Err(crate::fail(error::INVALID_HANDLE, "a default stream's attributes cannot be set"));
    };
    if attr == ATTRIBUTE_PRIORITY {
        s.priority = i32::from_le_bytes([v[0], v[1], v[2], v[3]]).clamp(-5, 0);
    } else {
        s.attributes.insert(attr, v);
    }
    Ok(())
}

/// The context of `stream` (the current one for the default streams).
fn stream_ctx(stream: Handle) -> Result<u64, CUresult> {
    state::with(|d| {
        d.check_stream(stream as u64)?;
        match d.streams.get(&(stream as u64)) {
            Some(s) => Ok(s.ctx),
            None => d.current(),
        }
    })
}

/// `CU_STREAM_WAIT_VALUE_*`: whether `current` satisfies a wait for `value`, both
/// `bytes` wide (a 32-bit NOR looks only at the low 32 bits).
fn satisfied(flags: u32, current: u64, value: u64, bytes: usize) -> Result<bool, CUresult> {
    let mask = if bytes == 4 { 0xffff_ffff } else { u64::MAX };
    Ok(match flags & 0xf {
        0 => current >= value,               // GEQ (cyclic in CUDA; plain here)
        1 => current == value,               // EQ
        2 => current & value != 0,           // AND
        3 => !(current | value) & mask != 0, // NOR
        f => return Err(crate::fail(error::INVALID_VALUE, format!("wait flag {f} is not one CUDA has"))),
    })
}

/// `cuStreamWaitValue32/64`: work runs as it is enqueued, so the wait is over when
/// the value already satisfies it; another host thread may still write it, so it is
/// watched for the deadlock grace (`PTXVM_DEADLOCK_GRACE`) before the wait is
/// reported as one that could never end.
fn wait_value(stream: Handle, addr: u64, value: u64, flags: u32, bytes: usize) -> Result<(), CUresult> {
    stream_op(stream)?;
    let grace =
        std::time::Duration::try_from_secs_f64(crate::config::get().deadlock_grace).unwrap_or_default();
    let start = Instant::now();
    loop {
        let mut now = [0u8; 8];
        state::with(|d| {
            d.device
                .copy_from_device(addr, &mut now[..bytes])
                .map_err(|e| crate::fail(error::INVALID_VALUE, e))
        })?;
        if satisfied(flags, u64::from_le_bytes(now), value, bytes)? {
            return Ok(());
        }
        if start.elapsed() >= grace {
            let why = format!(
                "the stream waits for the {bytes}-byte value at 0x{addr:x} (now {}) to reach {value} (flags {flags:#x}), \
                 and nothing enqueued before it can change it",
                u64::from_le_bytes(now)
            );
            return Err(crate::fail(error::ILLEGAL_STATE, why));
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// `cuStreamWriteValue32/64`.
fn write_value(stream: Handle, addr: u64, value: u64, bytes: usize) -> Result<(), CUresult> {
    stream_op(stream)?;
    state::with(|d| {
        d.device
            .copy_to_device(addr, &value.to_le_bytes()[..bytes])
            .map_err(|e| crate::fail(error::INVALID_VALUE, e))
    })
}

/// One of `cuStreamBatchMemOp`'s `CUstreamBatchMemOpParams` (48 bytes).
fn batch_op(stream: Handle, op: &[u8; 48]) -> Result<(), CUresult> {
    let word = |at: usize| u64::from_le_bytes(op[at..at + 8].try_into().unwrap_or([0; 8]));
    let kind = u32::from_le_bytes([op[0], op[1], op[2], op[3]]);
    let flags = u32::from_le_bytes([op[24], op[25], op[26], op[27]]);
    let (addr, value) = (word(8), word(16));
    match kind {
        1 => wait_value(stream, addr, value & 0xffff_ffff, flags, 4),
        2 => write_value(stream, addr, value & 0xffff_ffff, 4),
        4 => wait_value(stream, addr, value, flags, 8),
        5 => write_value(stream, addr, value, 8),
        // CU_STREAM_MEM_OP_BARRIER and FLUSH_REMOTE_WRITES: every write is visible.
        3 | 6 => Ok(()),
        k => {
            Err(crate::fail(error::INVALID_VALUE, format!("batch memory operation {k} is not one CUDA has")))
        }
    }
}

fn batch(stream: Handle, count: u32, ops: *const [u8; 48], flags: u32) -> Result<(), CUresult> {
    if flags != 0 || (count > 0 && ops.is_null()) {
        return Err(error::INVALID_VALUE);
    }
    for k in 0..count as usize {
        // SAFETY: the caller passes `count` operations.
        batch_op(stream, unsafe { &*ops.add(k) })?;
    }
    Ok(())
}

thread_local! {
    /// This thread's stream capture mode (`cuThreadExchangeStreamCaptureMode`).
    static CAPTURE_MODE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

crate::api! {
    fn cuStreamCreate(ph_stream: *mut Handle, flags: u32) {
        create(ph_stream, flags, 0)
    }

    fn cuStreamCreateWithPriority(ph_stream: *mut Handle, flags: u32, priority: i32) {
        create(ph_stream, flags, priority)
    }

    fn cuStreamDestroy_v2(h_stream: Handle) also cuStreamDestroy {
        state::with(|d| {
            d.current()?;
            d.streams.remove(&(h_stream as u64)).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_stream:?} is not a stream")))
        })
    }

    fn cuStreamSynchronize(h_stream: Handle) also cuStreamSynchronize_ptsz {
        crate::printf::flush();
        stream_op(h_stream)
    }

    fn cuStreamQuery(h_stream: Handle) also cuStreamQuery_ptsz {
        stream_op(h_stream)
    }

    fn cuStreamGetPriority(h_stream: Handle, priority: *mut i32) also cuStreamGetPriority_ptsz {
        let p = state::with(|d| {
            d.check_stream(h_stream as u64)?;
            Ok(d.streams.get(&(h_stream as u64)).map_or(0, |s| s.priority))
        })?;
        crate::out(priority, p)
    }

    fn cuStreamGetFlags(h_stream: Handle, flags: *mut u32) also cuStreamGetFlags_ptsz {
        let f = state::with(|d| {
            d.check_stream(h_stream as u64)?;
            Ok(d.streams.get(&(h_stream as u64)).map_or(0, |s| s.flags))
        })?;
        crate::out(flags, f)
    }

    fn cuStreamIsCapturing(h_stream: Handle, capture_status: *mut u32) also cuStreamIsCapturing_ptsz {
        let capturing = state::with(|d| {
            d.check_stream(h_stream as u64)?;
            Ok(d.streams.get(&(h_stream as u64)).is_some_and(|s| s.capture.is_some()))
        })?;
        // CU_STREAM_CAPTURE_STATUS_ACTIVE or _NONE.
        crate::out(capture_status, u32::from(capturing))
    }

    fn cuStreamGetCtx(h_stream: Handle, pctx: *mut Handle) also cuStreamGetCtx_ptsz {
        let c = stream_ctx(h_stream)?;
        crate::out(pctx, c as Handle)
    }

    fn cuStreamGetId(h_stream: Handle, stream_id: *mut u64) also cuStreamGetId_ptsz {
        state::with(|d| d.check_stream(h_stream as u64))?;
        crate::out(stream_id, h_stream as u64)
    }

    fn cuStreamWaitEvent(h_stream: Handle, h_event: Handle, flags: u32) also cuStreamWaitEvent_ptsz {
        let _ = flags;
        state::with(|d| {
            d.ctx()?;
            d.check_stream(h_stream as u64)?;
            event(d, h_event)?;
            crate::graph::capture::wait_event(d, h_stream as u64, h_event as u64)
        })
    }

    fn cuStreamAddCallback(h_stream: Handle, callback: CUstreamCallback, user_data: *mut c_void, flags: u32) also cuStreamAddCallback_ptsz {
        let Some(cb) = callback else { return Err(error::INVALID_VALUE) };
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        stream_op(h_stream)?;
        crate::printf::flush();
        // SAFETY: the program's callback, called as cuda.h declares it, without the
        // driver's lock held.
        unsafe { cb(h_stream, error::SUCCESS, user_data) };
        Ok(())
    }

    fn cuLaunchHostFunc(h_stream: Handle, func: CUhostFn, user_data: *mut c_void) also cuLaunchHostFunc_ptsz {
        let Some(f) = func else { return Err(error::INVALID_VALUE) };
        stream_op(h_stream)?;
        crate::graph::submit(h_stream as u64, crate::graph::Work::Host { func: f, data: user_data as usize })
    }

    fn cuEventCreate(ph_event: *mut Handle, flags: u32) {
        if ph_event.is_null() || flags & !0xf != 0 {
            return Err(error::INVALID_VALUE);
        }
        let e = state::with(|d| {
            let c = d.ctx()?;
            let e = d.handle();
            d.events.insert(e, EventEntry { ctx: c, flags, recorded: None, captured: None });
            Ok(e)
        })?;
        crate::out(ph_event, e as Handle)
    }

    fn cuEventRecord(h_event: Handle, h_stream: Handle) also cuEventRecord_ptsz {
        state::with(|d| {
            d.ctx()?;
            d.check_stream(h_stream as u64)?;
            event(d, h_event)?;
            crate::graph::capture::record_event(d, h_stream as u64, h_event as u64)
        })
    }

    fn cuEventRecordWithFlags(h_event: Handle, h_stream: Handle, flags: u32) also cuEventRecordWithFlags_ptsz {
        let _ = flags;
        // SAFETY: the same arguments, passed on.
        match unsafe { cuEventRecord(h_event, h_stream) } {
            0 => Ok(()),
            e => Err(e),
        }
    }

    fn cuEventQuery(h_event: Handle) {
        state::with(|d| {
            d.ctx()?;
            event(d, h_event).map(|_| ())
        })
    }

    fn cuEventSynchronize(h_event: Handle) {
        crate::printf::flush();
        state::with(|d| {
            d.ctx()?;
            event(d, h_event).map(|_| ())
        })
    }

    fn cuEventElapsedTime_v2(ms: *mut f32, h_start: Handle, h_end: Handle) {
        let t = state::with(|d| {
            d.ctx()?;
            let (s, e) = (event(d, h_start)?, event(d, h_end)?);
            if (s.flags | e.flags) & EVENT_DISABLE_TIMING != 0 {
                return Err(crate::fail(error::INVALID_HANDLE, "an event made with CU_EVENT_DISABLE_TIMING has no time"));
            }
            match (s.recorded, e.recorded) {
                (Some(a), Some(b)) => Ok(if b >= a { (b - a).as_secs_f32() * 1e3 } else { -((a - b).as_secs_f32() * 1e3) }),
                _ => Err(crate::fail(error::INVALID_HANDLE, "both events must be recorded first")),
            }
        })?;
        crate::out(ms, t)
    }

    fn cuEventElapsedTime(ms: *mut f32, h_start: Handle, h_end: Handle) {
        // SAFETY: the same arguments, passed on.
        match unsafe { cuEventElapsedTime_v2(ms, h_start, h_end) } {
            0 => Ok(()),
            e => Err(e),
        }
    }

    fn cuEventDestroy_v2(h_event: Handle) also cuEventDestroy {
        state::with(|d| {
            d.current()?;
            d.events.remove(&(h_event as u64)).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_event:?} is not an event")))
        })
    }

    fn cuStreamGetCtx_v2(h_stream: Handle, pctx: *mut Handle, p_green_ctx: *mut Handle) also cuStreamGetCtx_v2_ptsz {
        let c = stream_ctx(h_stream)?;
        crate::out(pctx, c as Handle)?;
        // No green contexts: NULL.
        crate::out(p_green_ctx, std::ptr::null_mut())
    }

    fn cuStreamGetDevice(h_stream: Handle, device: *mut crate::types::CUdevice) also cuStreamGetDevice_ptsz {
        state::with(|d| d.check_stream(h_stream as u64))?;
        crate::out(device, 0)
    }

    fn cuStreamGetAttribute(h_stream: Handle, attr: u32, value_out: *mut AttrValue) also cuStreamGetAttribute_ptsz {
        let v = state::with(|d| get_attribute(d, h_stream as u64, attr))?;
        crate::out(value_out, v)
    }

    fn cuStreamSetAttribute(h_stream: Handle, attr: u32, value: *const AttrValue) also cuStreamSetAttribute_ptsz {
        if value.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `const CUstreamAttrValue *`: 64 bytes.
        let v = unsafe { *value };
        state::with(|d| set_attribute(d, h_stream as u64, attr, v))
    }

    fn cuStreamCopyAttributes(dst: Handle, src: Handle) also cuStreamCopyAttributes_ptsz {
        state::with(|d| {
            for attr in [1, 3, 8, 9, 10] {
                let v = get_attribute(d, src as u64, attr)?;
                set_attribute(d, dst as u64, attr, v)?;
            }
            Ok(())
        })
    }

    fn cuStreamWaitValue32_v2(stream: Handle, addr: u64, value: u32, flags: u32) also cuStreamWaitValue32_v2_ptsz, cuStreamWaitValue32, cuStreamWaitValue32_ptsz {
        wait_value(stream, addr, u64::from(value), flags, 4)
    }

    fn cuStreamWaitValue64_v2(stream: Handle, addr: u64, value: u64, flags: u32) also cuStreamWaitValue64_v2_ptsz, cuStreamWaitValue64, cuStreamWaitValue64_ptsz {
        wait_value(stream, addr, value, flags, 8)
    }

    fn cuStreamWriteValue32_v2(stream: Handle, addr: u64, value: u32, flags: u32) also cuStreamWriteValue32_v2_ptsz, cuStreamWriteValue32, cuStreamWriteValue32_ptsz {
        let _ = flags;
        write_value(stream, addr, u64::from(value), 4)
    }

    fn cuStreamWriteValue64_v2(stream: Handle, addr: u64, value: u64, flags: u32) also cuStreamWriteValue64_v2_ptsz, cuStreamWriteValue64, cuStreamWriteValue64_ptsz {
        let _ = flags;
        write_value(stream, addr, value, 8)
    }

    fn cuStreamBatchMemOp_v2(stream: Handle, count: u32, param_array: *const [u8; 48], flags: u32) also cuStreamBatchMemOp_v2_ptsz {
        batch(stream, count, param_array, flags)
    }

    fn cuStreamBatchMemOp(stream: Handle, count: u32, param_array: *const [u8; 48], flags: u32) also cuStreamBatchMemOp_ptsz {
        batch(stream, count, param_array, flags)
    }

    fn cuLaunchHostFunc_v2(h_stream: Handle, func: CUhostFn, user_data: *mut c_void, sync_mode: u32) also cuLaunchHostFunc_v2_ptsz {
        // Work runs as it is enqueued: blocking or not, the function has run when
        // the call returns.
        let _ = sync_mode;
        let Some(f) = func else { return Err(error::INVALID_VALUE) };
        stream_op(h_stream)?;
        crate::graph::submit(h_stream as u64, crate::graph::Work::Host { func: f, data: user_data as usize })
    }

    fn cuStreamAttachMemAsync(h_stream: Handle, dptr: u64, length: usize, flags: u32) also cuStreamAttachMemAsync_ptsz {
        // Which streams may touch managed memory changes no result when work runs
        // in one order; the address must be memory the driver knows.
        let _ = (length, flags);
        state::with(|d| {
            d.check_stream(h_stream as u64)?;
            d.device.range(dptr).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("0x{dptr:x} is not memory the driver knows")))
        })
    }

    fn cuThreadExchangeStreamCaptureMode(mode: *mut u32) {
        if mode.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL in-out `CUstreamCaptureMode *`.
        let new = unsafe { *mode };
        if new > 2 {
            return Err(error::INVALID_VALUE);
        }
        crate::out(mode, CAPTURE_MODE.with(|m| m.replace(new)))
    }

}

#[cfg(test)]
mod tests {
    use super::satisfied;

    #[test]
    fn a_32_bit_nor_wait_looks_at_32_bits() {
        // cuda.h: NOR waits until ~(*addr | value) != 0, over the width of the wait.
        assert!(!satisfied(3, 0xffff_0000, 0x0000_ffff, 4).unwrap());
        assert!(satisfied(3, 0xffff_0000, 0x0000_fff0, 4).unwrap());
        assert!(satisfied(3, 0xffff_0000, 0x0000_ffff, 8).unwrap());
        assert!(!satisfied(3, u64::MAX, 0, 8).unwrap());
        assert!(satisfied(1, 7, 7, 4).unwrap() && !satisfied(0, 6, 7, 4).unwrap());
        assert!(satisfied(9, 0, 0, 4).is_err());
    }
}
