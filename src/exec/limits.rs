//! What stops a runaway launch, and what a watcher can read while it runs: the step
//! budget (dynamic warp instructions), a wall-clock time limit, and a cancel flag
//! (Ctrl-C), shared by the CTAs running on every core; and counters of finished CTAs
//! and executed lane-instructions for a progress line.
//!
//! Each CTA takes steps from the budget in chunks and checks the time and the flag
//! only when it takes a chunk, so the checks cost nothing per instruction.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Steps a CTA takes from the budget at once.
const CHUNK: u64 = 1 << 14;

/// The limits of one launch, and its progress.
pub struct Limits {
    steps: AtomicU64,
    max_steps: u64,
    timeout: Option<Duration>,
    start: Instant,
    cancel: Option<Arc<AtomicBool>>,
    checks: Checks,
    deadlock_grace: Duration,
    ctas_done: AtomicU64,
    lane_instructions: AtomicU64,
}

/// What a launch reports as a fault although the hardware carries on (`ptxvm run
/// --check`): the sanitizer side of behaviour the ISA calls unspecified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Integer division or remainder by zero, which gives all ones on the H100.
    pub div0: bool,
    /// Shared-memory hazards between threads of a CTA (`--sanitize racecheck`).
    pub racecheck: bool,
    /// Reads of shared memory no thread wrote (`--sanitize initcheck`).
    pub initcheck: bool,
    /// Each warp records the instructions it executes with their lane masks
    /// (`ptxvm trace`).
    pub trace: bool,
}

impl Checks {
    /// Whether a CTA keeps a shadow of its shared memory.
    pub fn shadow(&self) -> bool {
        self.racecheck || self.initcheck
    }
}

/// Why a launch was stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Steps(u64),
    Timeout(Duration),
    Cancelled,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Steps(n) => {
                write!(
                    f,
                    "instruction budget exhausted: {n} warp instructions ran (raise it with --max-steps)"
                )
            }
            Stop::Timeout(d) => {
                write!(
                    f,
                    "time limit of {} s exceeded (raise it with --timeout; 0 means none)",
                    d.as_secs_f64()
                )
            }
            Stop::Cancelled => write!(f, "interrupted (Ctrl-C) while this thread was running"),
        }
    }
}

impl Limits {
    /// At most `max_steps` dynamic warp instructions, no time limit, no cancel flag.
    pub fn new(max_steps: u64) -> Self {
        Limits {
            steps: AtomicU64::new(max_steps),
            max_steps,
            timeout: None,
            start: Instant::now(),
            cancel: None,
            checks: Checks::default(),
            deadlock_grace: Duration::from_secs(1),
            ctas_done: AtomicU64::new(0),
            lane_instructions: AtomicU64::new(0),
        }
    }

    /// Stops the launch once it has run for `timeout` (from now).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self.start = Instant::now();
        self
    }

    /// Stops the launch once `flag` is set (by a Ctrl-C handler, say).
    #[must_use]
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Reports what `checks` asks for as faults.
    #[must_use]
    pub fn checks(mut self, checks: Checks) -> Self {
        self.checks = checks;
        self
    }

    /// How long every CTA must wait on the others with no memory written before the
    /// launch is a deadlock (default 1 s; `exec/grid.rs`). Another host thread may
    /// write mapped or managed memory a kernel waits on: a program that does so
    /// later than this after the kernel starts waiting needs it longer.
    #[must_use]
    pub fn deadlock_grace(mut self, grace: Duration) -> Self {
        self.deadlock_grace = grace;
        self
    }

    /// The grace of [`Limits::deadlock_grace`].
    pub fn grace(&self) -> Duration {
        self.deadlock_grace
    }

    /// The checks the launch makes.
    pub fn checked(&self) -> Checks {
        self.checks
    }

    /// CTAs that ran to their end so far.
    pub fn ctas_done(&self) -> u64 {
        self.ctas_done.load(Relaxed)
    }

    /// Lane-instructions executed so far (dynamic instructions times active lanes),
    /// counted in chunks.
    pub fn lane_instructions(&self) -> u64 {
        self.lane_instructions.load(Relaxed)
    }

    pub(super) fn cta_done(&self) {
        self.ctas_done.fetch_add(1, Relaxed);
    }

    /// Takes up to `want` steps; why not, when the launch must stop.
    fn take(&self, want: u64) -> Result<u64, Stop> {
        if self.cancel.as_ref().is_some_and(|c| c.load(Relaxed)) {
            return Err(Stop::Cancelled);
        }
        if let Some(t) = self.timeout
            && self.start.elapsed() >= t
        {
            return Err(Stop::Timeout(t));
        }
        match self.steps.fetch_update(Relaxed, Relaxed, |left| Some(left - left.min(want))) {
            Ok(left) if left > 0 => Ok(left.min(want)),
            _ => Err(Stop::Steps(self.max_steps)),
        }
    }
}

/// One CTA's view of the limits: steps taken in chunks, lane-instructions counted
/// locally and added to the launch's counter with each chunk.
pub(super) struct Steps<'b> {
    limits: &'b Limits,
    local: u64,
    lanes: u64,
    /// Steps taken from the launch's budget so far.
    taken: u64,
}

impl<'b> Steps<'b> {
    pub fn new(limits: &'b Limits) -> Self {
        Steps { limits, local: 0, lanes: 0, taken: 0 }
    }

    /// Warp instructions run so far through this view.
    pub fn used(&self) -> u64 {
        self.taken - self.local
    }

    /// Uses one step for an instruction of `lanes` lanes.
    #[inline]
    pub fn step(&mut self, lanes: u32) -> Result<(), Stop> {
        if self.local == 0 {
            self.refill()?;
        }
        self.local -= 1;
        self.lanes += u64::from(lanes);
        Ok(())
    }

    #[cold]
    fn refill(&mut self) -> Result<(), Stop> {
        self.flush();
        self.local = self.limits.take(CHUNK)?;
        self.taken += self.local;
        Ok(())
    }

    /// Adds the locally counted lane-instructions to the launch's counter.
    pub fn flush(&mut self) {
        self.limits.lane_instructions.fetch_add(std::mem::take(&mut self.lanes), Relaxed);
    }
}
