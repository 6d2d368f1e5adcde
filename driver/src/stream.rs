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
        d.streams.insert(s, StreamEntry { ctx: c, flags, priority: priority.clamp(-5, 0), capture: None });
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

fn event(d: &state::Driver, e: Handle) -> Result<&EventEntry, CUresult> {
    d.events
        .get(&(e as u64))
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{e:?} is not an event")))
}

crate::api! {
    fn cuStreamCreate(ph_stream: *mut Handle, flags: u32) {
        create(ph_stream, flags, 0)
    }

    fn cuStreamCreateWithPriority(ph_stream: *mut Handle, flags: u32, priority: i32) {
        create(ph_stream, flags, priority)
    }

    fn cuStreamDestroy_v2(h_stream: Handle) {
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
        let c = state::with(|d| {
            d.check_stream(h_stream as u64)?;
            match d.streams.get(&(h_stream as u64)) {
                Some(s) => Ok(s.ctx),
                None => d.current(),
            }
        })?;
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
            event(d, h_event).map(|_| ())
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
            d.events.insert(e, EventEntry { ctx: c, flags, recorded: None });
            Ok(e)
        })?;
        crate::out(ph_event, e as Handle)
    }

    fn cuEventRecord(h_event: Handle, h_stream: Handle) also cuEventRecord_ptsz {
        state::with(|d| {
            d.ctx()?;
            d.check_stream(h_stream as u64)?;
            event(d, h_event)?;
            if let Some(e) = d.events.get_mut(&(h_event as u64)) {
                e.recorded = Some(Instant::now());
            }
            Ok(())
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

    fn cuEventDestroy_v2(h_event: Handle) {
        state::with(|d| {
            d.current()?;
            d.events.remove(&(h_event as u64)).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_event:?} is not an event")))
        })
    }
}
