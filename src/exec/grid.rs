//! A grid's CTAs on the host's threads (DESIGN.md, "Design notes": CTAs may wait on
//! CTAs). Most kernels never wait on another CTA: each CTA runs to its end on a
//! worker, in parallel, and only resident CTAs hold memory. A kernel that may wait
//! (it has an atomic, a `nanosleep`, or a `.volatile`, `.relaxed` or `.acquire` load:
//! [`Program::may_spin`](crate::lower::program::Program)) runs so that a CTA spinning
//! on memory another CTA has yet to write cannot keep that CTA from running: a CTA
//! that has run a slice of instructions steps aside, whole, for CTAs not started yet
//! and for the others that stepped aside, which then take turns. So cooperative
//! groups' `grid.sync()`, decoupled look-back scans, spin locks and flags set by later
//! CTAs all complete.
//!
//! A wait that can never end is a deadlock fault: when every CTA still running has,
//! in its last turn, only looped without changing anything or waited at a barrier
//! (`spin.rs`), and no CTA has changed memory since before those turns, nothing can
//! change any more. ptxvm still lets a grace pass with no memory written before it
//! says so, for memory the host may write while the kernel runs (mapped or managed
//! memory, from another host thread). A wait it cannot tell from progress (a loop
//! that counts, say) runs into the step budget or the time limit, and the fault then
//! notes where every waiting CTA was.

use super::cta::{Scratch, Suspended, Turn};
use super::limits::Limits;
use super::spin::Loop;
use super::warp::{Cta, Fault};
use crate::lower::program::{Mem, Op, Program};
use rayon::prelude::*;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Warp instructions a CTA of a kernel that may wait runs before it steps aside.
const SLICE: u64 = 1 << 16;

/// One turn in this many of a CTA that stepped aside is watched ([`Turn::waits`]).
const WATCH_EVERY: u32 = 4;

/// CTAs that may wait aside at once; past this a CTA runs on (bounding memory: each
/// holds its registers and shared memory).
const MAX_ASIDE: usize = 1 << 13;

/// Notes of waiting CTAs a fault names at most.
const MAX_NOTES: usize = 8;

/// What the workers share: the next CTA to start, the CTAs aside, how many run now,
/// the faults met, and which CTAs wait on others.
struct Board {
    next: u64,
    aside: VecDeque<(u64, Suspended)>,
    running: usize,
    stop: bool,
    faults: Vec<(u64, Fault)>,
    /// Each turn that may have changed memory ends an epoch.
    epoch: u64,
    epoch_began: Instant,
    /// The CTAs (or clusters) whose last turn, begun in this epoch, found them waiting
    /// on others, by launch order: the CTA that loops, and where.
    waiting: HashMap<u64, (u64, Vec<Loop>)>,
    /// The deadlock fault, made when it was found (turns still running may end
    /// after it and change what is waiting).
    deadlocked: Option<(u64, Fault)>,
}

impl Board {
    /// CTA (or cluster) `n`'s turn, begun in epoch `began` and `watched` or not, ended
    /// as `turn`, with CTA `at` the one that waits.
    fn turn_ended(&mut self, n: u64, at: u64, began: u64, watched: bool, turn: &Turn) {
        if turn.wrote {
            self.epoch += 1;
            self.epoch_began = Instant::now();
            self.waiting.clear();
        }
        if turn.done {
            self.waiting.remove(&n);
        } else if watched {
            match &turn.waits {
                // A turn begun before memory last changed may have read the old values.
                Some(loops) if began == self.epoch => self.waiting.insert(n, (at, loops.clone())),
                _ => self.waiting.remove(&n),
            };
        }
        // A turn not watched that changed nothing leaves a CTA found waiting in this
        // epoch waiting: it went on from the same state with the same memory.
    }

    /// Whether the launch is deadlocked: every CTA started, and each one not done
    /// waits on the others in this epoch, which has lasted `grace`.
    fn is_deadlocked(&self, count: u64, grace: Duration) -> bool {
        self.next >= count
            && !self.waiting.is_empty()
            && self.waiting.len() == self.aside.len() + self.running
            && self.epoch_began.elapsed() >= grace
    }
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
    // Clusters of more than one CTA run whole, each on one thread (`cluster.rs`), and
    // take turns as the CTAs of other kernels do when they may wait.
    let clusters = cta.shape.cluster_size() > 1;
    if clusters && !cta.program.may_spin {
        return (0..cta.shape.clusters())
            .into_par_iter()
            .filter_map(|c| cta.run_cluster(c, limits).err())
            .min_by_key(|(n, _)| *n);
    }
    if !cta.program.may_spin || cta.checks.trace {
        return (0..count)
            .into_par_iter()
            .map_init(Scratch::default, |scratch, n| cta.run(n, limits, scratch).err().map(|f| (n, f)))
            .flatten()
            .min_by_key(|(n, _)| *n);
    }
    // What takes turns: clusters, or CTAs.
    let count = if clusters { cta.shape.clusters() } else { count };
    let board = Mutex::new(Board {
        next: 0,
        aside: VecDeque::new(),
        running: 0,
        stop: false,
        faults: Vec::new(),
        epoch: 0,
        epoch_began: Instant::now(),
        waiting: HashMap::new(),
        deadlocked: None,
    });
    let workers = rayon::current_num_threads().max(1);
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| work(cta, count, limits, &board));
        }
    });
    let board = board.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(fault) = board.deadlocked {
        return Some(fault);
    }
    let mut first = board.faults.into_iter().min_by_key(|(n, _)| *n)?;
    // A wait that never ended: say where the CTAs still waiting were.
    for (n, suspended) in board.aside.iter().take(MAX_NOTES) {
        let at = match suspended {
            Suspended::Cta(scratch) => scratch.first_pc().map(|pc| (*n, pc)),
            Suspended::Cluster(run) => run.first_pc(),
        };
        if let Some((n, pc)) = at {
            let c = cta.shape.ctaid(n);
            first.1.notes.push((pc, format!("CTA ({},{},{}) was waiting here", c.x, c.y, c.z)));
        }
    }
    Some(first)
}

/// The fault of a deadlocked launch, at the first CTA in launch order, with a note
/// for each of the next CTAs: where its first looping warp loops.
fn deadlock(cta: &Cta<'_>, waiting: &HashMap<u64, (u64, Vec<Loop>)>, grace: Duration) -> (u64, Fault) {
    let mut ctas: Vec<(u64, &[Loop])> = waiting.values().map(|(n, l)| (*n, &l[..])).collect();
    ctas.sort_by_key(|(n, _)| *n);
    let place = |n: u64, loops: &[Loop]| {
        let c = cta.shape.ctaid(n);
        let (l, more) = (loops[0], loops.len() - 1);
        let others = match more {
            0 => String::new(),
            1 => " (and 1 more warp)".to_string(),
            m => format!(" (and {m} more warps)"),
        };
        format!(
            "CTA ({},{},{}) loops here: lanes {:#010x} of warp {}{others}",
            c.x, c.y, c.z, l.lanes, l.warp
        )
    };
    let (n, first) = ctas[0];
    let cause = format!(
        "deadlock across CTAs: each of the {} CTAs still running waits for memory that no \
         thread will change (it loops without writing anything, or waits at a barrier for \
         threads that do), and no CTA has written to memory for {} s, so none ever will. \
         {}",
        ctas.len(),
        grace.as_secs_f64(),
        place(n, first)
    );
    let mut notes: Vec<(u32, String)> = ctas[1..]
        .iter()
        .take(MAX_NOTES)
        .map(|&(n, l)| (waited_on(cta.program, &l[0]), place(n, l)))
        .collect();
    if ctas.len() > MAX_NOTES + 1 {
        let last = notes[MAX_NOTES - 1].0;
        notes.push((last, format!("and {} more CTAs wait", ctas.len() - MAX_NOTES - 1)));
    }
    let fault = Fault {
        cause,
        ctaid: cta.shape.ctaid(n),
        tid: cta.shape.tid(first[0].warp, first[0].lanes.trailing_zeros().min(31)),
        pc: waited_on(cta.program, &first[0]),
        notes,
        calls: Vec::new(),
    };
    (n, fault)
}

/// The instruction of loop `l` that reads what the loop waits for: its first atomic
/// or `.volatile`/`.relaxed`/`.acquire` load, else its first load of global memory,
/// else its head.
fn waited_on(program: &Program, l: &Loop) -> u32 {
    let body = l.head..=l.back;
    let find = |f: &dyn Fn(&Op) -> bool| body.clone().find(|&pc| f(&program.insts[pc as usize].op));
    find(&|op| matches!(op, Op::Ld { spin: true, .. } | Op::Atom { .. } | Op::AtomVec(_)))
        .or_else(|| find(&|op| matches!(op, Op::Ld { mem: Mem::Global | Mem::Generic, .. })))
        .unwrap_or(l.head)
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
        let (job, began) = {
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
                    (j, b.epoch)
                }
                None if b.running == 0 => return,
                None => {
                    drop(b);
                    std::thread::yield_now();
                    continue;
                }
            }
        };
        let clusters = cta.shape.cluster_size() > 1;
        let (n, mut unit, resumed) = match job {
            Job::Start(n) if clusters => (n, Suspended::Cluster(Box::new(cta.start_cluster(n))), false),
            Job::Start(n) => (n, Suspended::Cta(spare.take().unwrap_or_default()), false),
            Job::Resume(n, unit) => (n, unit, true),
        };
        // A CTA that stepped aside is watched for waiting on others every few turns
        // (watching costs a few per cent of a turn that computes).
        let next_turn = match &mut unit {
            Suspended::Cta(scratch) => scratch.next_turn(),
            Suspended::Cluster(run) => Cta::next_cluster_turn(run),
        };
        let watch = resumed && next_turn.is_multiple_of(WATCH_EVERY);
        // A CTA resumed may always step aside again (its place is free); a new one
        // only while there is room.
        let may_yield = resumed || lock(board).aside.len() < MAX_ASIDE;
        // A panic here is a bug of ptxvm's; it must not leave the other workers
        // waiting for this one forever, so it ends the launch as a fault.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &mut unit {
            Suspended::Cta(scratch) => {
                if !resumed {
                    cta.start(n, scratch);
                }
                cta.resume(n, limits, scratch, may_yield.then_some(SLICE), watch)
                    .map(|t| (t, n))
                    .map_err(|f| (n, f))
            }
            // A cluster takes a round of turns, or, with no room aside, all of them.
            Suspended::Cluster(run) => loop {
                let round = cta.cluster_round(run, limits, watch);
                if may_yield || !matches!(round, Ok((Turn { done: false, .. }, _))) {
                    break round;
                }
            },
        }))
        .unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned());
            let origin = super::threads::Dim3 { x: 0, y: 0, z: 0 };
            let first = if clusters { cta.shape.cta_of(n, 0) } else { n };
            Err((
                first,
                Fault {
                    cause: format!("internal error in ptxvm: {}; please report it", what.unwrap_or_default()),
                    ctaid: cta.shape.ctaid(first),
                    tid: origin,
                    pc: 0,
                    notes: Vec::new(),
                    calls: Vec::new(),
                },
            ))
        });
        let mut b = lock(board);
        b.running -= 1;
        match result {
            Ok((turn, at)) => {
                b.turn_ended(n, at, began, watch, &turn);
                if turn.done {
                    if let Suspended::Cta(scratch) = unit {
                        spare = Some(scratch);
                    }
                } else {
                    b.aside.push_back((n, unit));
                    if b.deadlocked.is_none() && b.is_deadlocked(count, limits.grace()) {
                        b.deadlocked = Some(deadlock(cta, &b.waiting, limits.grace()));
                        b.stop = true;
                    }
                }
            }
            Err((n, f)) => {
                b.faults.push((n, f));
                // The others may wait for this CTA: end the launch.
                b.stop = true;
            }
        }
    }
}
