//! A grid's CTAs on the host's threads (DESIGN.md, "Design notes": CTAs may wait on
//! CTAs). Most kernels never wait on another CTA: each CTA runs to its end on a
//! worker, in parallel, and only resident CTAs hold memory. A kernel that may wait
//! (it has an atomic, a `nanosleep`, or a `.volatile`, `.relaxed` or `.acquire` load:
//! [`Program::may_spin`](crate::lower::program::Program)) runs so that a CTA spinning
//! on memory another CTA has yet to write cannot keep that CTA from running: a CTA
//! that has run a slice of instructions steps aside, whole, for CTAs not started yet
//! and for the others that stepped aside, which then take turns. So cooperative
//! groups' `grid.sync()`, decoupled look-back scans, spin locks and flags set by later
//! CTAs all complete. A wait that can never end runs into the step budget or the time
//! limit, and the fault then notes where every waiting CTA was.

use super::cta::{Scratch, Suspended};
use super::limits::Limits;
use super::warp::{Cta, Fault};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::Mutex;

/// Warp instructions a CTA of a kernel that may wait runs before it steps aside.
const SLICE: u64 = 1 << 16;

/// CTAs that may wait aside at once; past this a CTA runs on (bounding memory: each
/// holds its registers and shared memory).
const MAX_ASIDE: usize = 1 << 13;

/// Notes of waiting CTAs a fault names at most.
const MAX_NOTES: usize = 8;

/// What the workers share: the next CTA to start, the CTAs aside, how many run now,
/// and the faults met.
struct Board {
    next: u64,
    aside: VecDeque<(u64, Suspended)>,
    running: usize,
    stop: bool,
    faults: Vec<(u64, Fault)>,
}

enum Job {
    Start(u64),
    Resume(u64, Suspended),
}

/// Runs CTAs `0..count` of `cta`; the fault of the first CTA in launch order that
/// met one. Without waiting CTAs every CTA runs, so the report does not depend on
/// scheduling; with them, the first fault ends the launch (the others may wait for
/// the faulted CTA forever), and it is the first in launch order among the faults met
/// by then.
pub fn run(cta: &Cta<'_>, count: u64, limits: &Limits) -> Option<(u64, Fault)> {
    if !cta.program.may_spin || cta.checks.trace {
        return (0..count)
            .into_par_iter()
            .map_init(Scratch::default, |scratch, n| cta.run(n, limits, scratch).err().map(|f| (n, f)))
            .flatten()
            .min_by_key(|(n, _)| *n);
    }
    let board =
        Mutex::new(Board { next: 0, aside: VecDeque::new(), running: 0, stop: false, faults: Vec::new() });
    let workers = rayon::current_num_threads().max(1);
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| work(cta, count, limits, &board));
        }
    });
    let board = board.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut first = board.faults.into_iter().min_by_key(|(n, _)| *n)?;
    // A wait that never ended: say where the CTAs still waiting were.
    for (n, Suspended(scratch)) in board.aside.iter().take(MAX_NOTES) {
        if let Some(pc) = scratch.first_pc() {
            let c = cta.shape.ctaid(*n);
            first.1.notes.push((pc, format!("CTA ({},{},{}) was waiting here", c.x, c.y, c.z)));
        }
    }
    Some(first)
}

fn lock(board: &Mutex<Board>) -> std::sync::MutexGuard<'_, Board> {
    board.lock().unwrap_or_else(|e| e.into_inner())
}

/// One worker: starts CTAs in launch order, and takes turns with the CTAs aside.
fn work(cta: &Cta<'_>, count: u64, limits: &Limits, board: &Mutex<Board>) {
    let mut turn = 0u64;
    // The state of the last CTA that ended here, reused for the next one started.
    let mut spare: Option<Box<Scratch>> = None;
    loop {
        let job = {
            let mut b = lock(board);
            if b.stop {
                return;
            }
            turn += 1;
            // New CTAs first (the one a waiting CTA waits for may not have started),
            // every other turn one that stepped aside; only those once the room for
            // CTAs aside is full.
            let full = b.aside.len() >= MAX_ASIDE;
            let resume = !b.aside.is_empty() && (b.next >= count || full || turn.is_multiple_of(2));
            let job = if resume {
                b.aside.pop_front().map(|(n, s)| Job::Resume(n, s))
            } else if b.next < count {
                b.next += 1;
                Some(Job::Start(b.next - 1))
            } else {
                None
            };
            match job {
                Some(j) => {
                    b.running += 1;
                    j
                }
                None if b.running == 0 => return,
                None => {
                    drop(b);
                    std::thread::yield_now();
                    continue;
                }
            }
        };
        let (n, mut scratch, resumed) = match job {
            Job::Start(n) => (n, spare.take().unwrap_or_default(), false),
            Job::Resume(n, Suspended(scratch)) => (n, scratch, true),
        };
        // A CTA resumed may always step aside again (its place is free); a new one
        // only while there is room.
        let may_yield = resumed || lock(board).aside.len() < MAX_ASIDE;
        // A panic here is a bug of ptxvm's; it must not leave the other workers
        // waiting for this one forever, so it ends the launch as a fault.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if !resumed {
                cta.start(n, &mut scratch);
            }
            cta.resume(n, limits, &mut scratch, may_yield.then_some(SLICE))
        }))
        .unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned());
            let origin = super::threads::Dim3 { x: 0, y: 0, z: 0 };
            Err(Fault {
                cause: format!("internal error in ptxvm: {}; please report it", what.unwrap_or_default()),
                ctaid: cta.shape.ctaid(n),
                tid: origin,
                pc: 0,
                notes: Vec::new(),
                calls: Vec::new(),
            })
        });
        let mut b = lock(board);
        b.running -= 1;
        match result {
            Ok(true) => spare = Some(scratch),
            Ok(false) => b.aside.push_back((n, Suspended(scratch))),
            Err(f) => {
                b.faults.push((n, f));
                // The others may wait for this CTA: end the launch.
                b.stop = true;
            }
        }
    }
}
